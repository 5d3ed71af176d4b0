/**
 * The widget's audio, a lean copy of the web app's live-call audio (apps/web features/live-call/audio,
 * which a package may not import): one AudioContext at 16 kHz for both directions, the microphone
 * sent as 20 ms frames of 16-bit PCM, the assistant's PCM played back to back with a 40 ms lead.
 */
const RATE = 16_000;
const FRAME = 320;

// Runs on the audio thread; shipped inline and loaded from a blob: URL.
const WORKLET =
  'registerProcessor("parley-widget-capture",class extends AudioWorkletProcessor{process(i){const c=i[0]&&i[0][0];if(c)this.port.postMessage(c.slice(0));return true}})';

export interface AudioIo {
  play(pcm: Int16Array): void;
  /** Drops queued assistant audio (the caller spoke over it). */
  flush(): void;
  setMuted(muted: boolean): void;
  /** Milliseconds of audible assistant audio played so far. */
  playedMs(): number;
  close(): Promise<void>;
}

function toInt16(input: Float32Array): Int16Array {
  const out = new Int16Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const s = Math.max(-1, Math.min(1, input[i] ?? 0));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Averages each output sample's span of input (only for browsers that refuse a 16 kHz context). */
function downsampler(inputRate: number) {
  const ratio = inputRate / RATE;
  let carry = new Float32Array(0);
  let position = 0;
  return (chunk: Float32Array): Float32Array => {
    const input = new Float32Array(carry.length + chunk.length);
    input.set(carry);
    input.set(chunk, carry.length);
    const out: number[] = [];
    while (position + ratio <= input.length) {
      const start = Math.floor(position);
      const end = Math.min(input.length, Math.floor(position + ratio));
      let sum = 0;
      for (let i = start; i < end; i++) sum += input[i] ?? 0;
      out.push(end > start ? sum / (end - start) : 0);
      position += ratio;
    }
    const used = Math.floor(position);
    carry = input.slice(used);
    position -= used;
    return Float32Array.from(out);
  };
}

export async function createAudioIo(stream: MediaStream, onFrame: (pcm: Int16Array) => void): Promise<AudioIo> {
  let context: AudioContext;
  let source: MediaStreamAudioSourceNode;
  try {
    context = new AudioContext({ sampleRate: RATE, latencyHint: "interactive" });
    source = context.createMediaStreamSource(stream);
  } catch {
    context = new AudioContext({ latencyHint: "interactive" });
    source = context.createMediaStreamSource(stream);
  }
  await context.resume();
  const url = URL.createObjectURL(new Blob([WORKLET], { type: "application/javascript" }));
  await context.audioWorklet.addModule(url);
  URL.revokeObjectURL(url);
  const capture = new AudioWorkletNode(context, "parley-widget-capture");
  const resample = context.sampleRate === RATE ? null : downsampler(context.sampleRate);
  let pending = new Float32Array(0);
  let muted = false;
  capture.port.onmessage = (event: MessageEvent<Float32Array>) => {
    const chunk = resample ? resample(event.data) : event.data;
    const joined = new Float32Array(pending.length + chunk.length);
    joined.set(pending);
    joined.set(chunk, pending.length);
    let offset = 0;
    for (; offset + FRAME <= joined.length; offset += FRAME) {
      // Muted sends silence, so the server's silence timer keeps running.
      onFrame(muted ? new Int16Array(FRAME) : toInt16(joined.subarray(offset, offset + FRAME)));
    }
    pending = joined.slice(offset);
  };
  source.connect(capture);
  const sink = context.createGain();
  sink.gain.value = 0;
  capture.connect(sink).connect(context.destination);

  const playing = new Set<AudioBufferSourceNode>();
  let nextTime = 0;
  let played = 0;
  return {
    play(pcm) {
      const samples = new Float32Array(pcm.length);
      let energy = 0;
      for (let i = 0; i < pcm.length; i++) {
        const s = (pcm[i] ?? 0) / 0x8000;
        samples[i] = s;
        energy += s * s;
      }
      if (pcm.length > 0 && Math.sqrt(energy / pcm.length) > 0.005) played += (pcm.length / RATE) * 1000;
      const buffer = context.createBuffer(1, samples.length, RATE);
      buffer.copyToChannel(samples, 0);
      const node = context.createBufferSource();
      node.buffer = buffer;
      node.connect(context.destination);
      const at = Math.max(nextTime, context.currentTime + 0.04);
      node.start(at);
      nextTime = at + buffer.duration;
      playing.add(node);
      node.onended = () => playing.delete(node);
    },
    flush() {
      for (const node of playing) node.stop();
      playing.clear();
      nextTime = 0;
    },
    setMuted(value) {
      muted = value;
    },
    playedMs: () => Math.round(played),
    async close() {
      capture.port.onmessage = null;
      for (const node of playing) node.stop();
      for (const track of stream.getTracks()) track.stop();
      await context.close();
    },
  };
}
