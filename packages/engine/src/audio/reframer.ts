/** Cuts a stream of PCM pieces of any length into fixed-size frames. */
export class Reframer {
  private readonly pending: Int16Array;
  private filled = 0;

  constructor(private readonly frameSize: number) {
    this.pending = new Int16Array(frameSize);
  }

  /** Feeds samples; calls `onFrame` with each complete frame (a fresh array each time). */
  push(pcm: Int16Array, onFrame: (frame: Int16Array) => void): void {
    let offset = 0;
    while (offset < pcm.length) {
      const take = Math.min(this.frameSize - this.filled, pcm.length - offset);
      this.pending.set(pcm.subarray(offset, offset + take), this.filled);
      this.filled += take;
      offset += take;
      if (this.filled === this.frameSize) {
        onFrame(this.pending.slice());
        this.filled = 0;
      }
    }
  }

  /** Samples held back waiting for a full frame. */
  get buffered(): number {
    return this.filled;
  }
}
