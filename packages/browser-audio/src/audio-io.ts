import { CALL_SAMPLE_RATE, createDownsampler, floatToInt16, int16ToFloat, rms } from "./pcm.ts";

/** 20 ms of 16 kHz audio: the frame size the server's engine works in. */
const FRAME_SAMPLES = 320;

// The worklet forwards the microphone's render quanta to the page; it runs on the audio thread,
// so it is shipped inline and loaded from a blob: URL. Written pre-minified because the widget's
// bundler cannot shrink the inside of a string, and every site embedding the widget pays its bytes.
const CAPTURE_WORKLET =
  'registerProcessor("parley-capture",class extends AudioWorkletProcessor{process(i){const c=i[0]&&i[0][0];if(c)this.port.postMessage(c.slice(0));return true}})';

export interface AudioIo {
  /** Queues assistant audio (16 kHz s16le) right after what is already queued. */
  play(pcm: Int16Array): void;
  /** Drops queued assistant audio at once (the caller barged in). */
  flush(): void;
  setMuted(muted: boolean): void;
  /** Recent levels in [0, 1] for the meters. */
  levels(): { microphone: number; assistant: number };
  /** Milliseconds of non-silent assistant audio played so far. */
  playedMs(): number;
  close(): Promise<void>;
}

/**
 * Runs one AudioContext for both directions: microphone → 20 ms PCM frames for the socket, and
 * socket PCM → gapless playback. The context runs at 16 kHz where the browser allows it, so the
 * browser's own resampler does the work.
 */
export async function createAudioIo(stream: MediaStream, onFrame: (pcm: Int16Array) => void): Promise<AudioIo> {
  let context: AudioContext;
  let source: MediaStreamAudioSourceNode;
  try {
    context = new AudioContext({ sampleRate: CALL_SAMPLE_RATE, latencyHint: "interactive" });
    source = context.createMediaStreamSource(stream);
  } catch {
    // Some browsers refuse a microphone source in a context at another rate: use the native one.
    context = new AudioContext({ latencyHint: "interactive" });
    source = context.createMediaStreamSource(stream);
  }
  await context.resume();
  const workletUrl = URL.createObjectURL(new Blob([CAPTURE_WORKLET], { type: "application/javascript" }));
  await context.audioWorklet.addModule(workletUrl);
  URL.revokeObjectURL(workletUrl);

  const capture = new AudioWorkletNode(context, "parley-capture");
  const downsample = context.sampleRate === CALL_SAMPLE_RATE ? null : createDownsampler(context.sampleRate);
  let pending = new Float32Array(0);
  let muted = false;
  let micLevel = 0;
  capture.port.onmessage = (event: MessageEvent<Float32Array>) => {
    const chunk = downsample ? downsample(event.data) : event.data;
    micLevel = muted ? 0 : rms(chunk);
    const joined = new Float32Array(pending.length + chunk.length);
    joined.set(pending);
    joined.set(chunk, pending.length);
    let offset = 0;
    while (offset + FRAME_SAMPLES <= joined.length) {
      const frame = joined.subarray(offset, offset + FRAME_SAMPLES);
      // Muted still sends silence so the server's turn-taking clock keeps running.
      onFrame(muted ? new Int16Array(FRAME_SAMPLES) : floatToInt16(frame));
      offset += FRAME_SAMPLES;
    }
    pending = joined.slice(offset);
  };
  source.connect(capture);
  // The worklet must be pulled by the graph to run; a muted gain keeps it out of the speakers.
  const sink = context.createGain();
  sink.gain.value = 0;
  capture.connect(sink).connect(context.destination);

  const playing = new Set<AudioBufferSourceNode>();
  let nextTime = 0;
  let assistantLevel = 0;
  let played = 0;

  return {
    play(pcm) {
      const samples = int16ToFloat(pcm);
      const level = rms(samples);
      assistantLevel = level;
      if (level > 0.005) played += (pcm.length / CALL_SAMPLE_RATE) * 1000;
      const buffer = context.createBuffer(1, samples.length, CALL_SAMPLE_RATE);
      buffer.copyToChannel(samples, 0);
      const node = context.createBufferSource();
      node.buffer = buffer;
      node.connect(context.destination);
      // A small lead absorbs network jitter without adding noticeable delay.
      const startAt = Math.max(nextTime, context.currentTime + 0.04);
      node.start(startAt);
      nextTime = startAt + buffer.duration;
      playing.add(node);
      node.onended = () => {
        playing.delete(node);
        if (playing.size === 0) assistantLevel = 0;
      };
    },
    flush() {
      for (const node of playing) node.stop();
      playing.clear();
      nextTime = 0;
      assistantLevel = 0;
    },
    setMuted(value) {
      muted = value;
    },
    levels: () => ({ microphone: micLevel, assistant: assistantLevel }),
    playedMs: () => Math.round(played),
    async close() {
      capture.port.onmessage = null;
      for (const node of playing) node.stop();
      for (const track of stream.getTracks()) track.stop();
      await context.close();
    },
  };
}
