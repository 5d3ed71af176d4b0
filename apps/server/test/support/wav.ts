/**
 * A 16-bit PCM WAV of a 440 Hz tone at `amplitude` on the first of `channels` channels (the others
 * silent): the 44-byte header, then the samples.
 */
export function toneWav(sampleRate: number, seconds: number, channels: number, amplitude: number): Buffer {
  const frames = Math.round(sampleRate * seconds);
  const blockAlign = channels * 2;
  const data = Buffer.alloc(frames * blockAlign);
  for (let i = 0; i < frames; i += 1) {
    data.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * blockAlign);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** A 16-bit stereo WAV of a quiet tone on the left and silence on the right, for recording tests. */
export function stereoWav(sampleRate: number, seconds: number): Buffer {
  return toneWav(sampleRate, seconds, 2, 3000);
}

/** The format fields of a WAV header, and its data length. */
export function readWavHeader(wav: Buffer) {
  return {
    riff: wav.toString("ascii", 0, 4),
    wave: wav.toString("ascii", 8, 12),
    channels: wav.readUInt16LE(22),
    sampleRate: wav.readUInt32LE(24),
    bitsPerSample: wav.readUInt16LE(34),
    dataBytes: wav.readUInt32LE(40),
  };
}
