import { createReadStream, createWriteStream, type ReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ENGINE_SAMPLE_RATE,
  type RecordingChannel,
  type RecordingSink,
  WAV_HEADER_BYTES,
  wavHeader,
} from "@parley/engine";

/**
 * Call recordings as WAV files under DATA_DIR/recordings/<workspace>/<call>.wav: appended as the
 * call runs (the header's sizes are filled in when it ends), streamed back to the listener, removed
 * with their log. Nothing large is built or written in one piece, so ending a call never stalls.
 */

const STEREO = 2;
/** Audio gathered before a write (half a second): one write per frame would cost more than the audio. */
const FLUSH_BYTES = 32_000;

export interface RecordingFile {
  /** Where the engine streams the call's stereo audio. */
  sink: RecordingSink;
  /** The file, relative to DATA_DIR (what the call log stores). */
  path: string;
  /** Finishes the file; the bytes of audio in it (0: nothing was recorded and the file is gone). */
  close(): Promise<number>;
}

const relativePath = (workspaceId: string, callId: string) => path.join("recordings", workspaceId, `${callId}.wav`);

/** DATA_DIR `memory://`: an in-memory database (tests, trials), whose recordings go to the temp dir. */
export const inMemoryData = (dataDir: string) => dataDir.startsWith("memory://");

const root = (dataDir: string) => (inMemoryData(dataDir) ? path.join(tmpdir(), "parley-memory") : dataDir);

export async function createRecordingFile(
  dataDir: string,
  workspaceId: string,
  callId: string,
): Promise<RecordingFile> {
  const relative = relativePath(workspaceId, callId);
  const file = path.resolve(root(dataDir), relative);
  await mkdir(path.dirname(file), { recursive: true });
  const stream = createWriteStream(file);
  let failure: Error | null = null;
  stream.on("error", (error) => {
    failure = error;
  });
  // Sizes of 0 until the end: a reader of a cut-off file (a crash) reads to its end.
  stream.write(wavHeader(ENGINE_SAMPLE_RATE, STEREO, 0));
  let bytes = 0;
  /** Stretches to silence (redacted speech), zeroed in the file once it is written. */
  const silenced: SilencedStretch[] = [];
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  const flush = () => {
    if (gatheredBytes > 0) stream.write(Buffer.concat(gathered, gatheredBytes));
    gathered = [];
    gatheredBytes = 0;
  };
  return {
    path: relative,
    sink: {
      write(stereo) {
        if (failure) return;
        bytes += stereo.byteLength;
        gathered.push(Buffer.from(stereo.buffer, stereo.byteOffset, stereo.byteLength));
        gatheredBytes += stereo.byteLength;
        if (gatheredBytes >= FLUSH_BYTES) flush();
      },
      silence(channel, from, to) {
        silenced.push({ channel, from, to });
      },
    },
    async close() {
      flush();
      await new Promise<void>((resolve) => stream.end(resolve));
      if (failure || bytes === 0) {
        await rm(file, { force: true });
        if (failure) throw failure;
        return 0;
      }
      const handle = await open(file, "r+");
      try {
        for (const stretch of silenced) await silenceStretch(handle, stretch, bytes);
        await handle.write(wavHeader(ENGINE_SAMPLE_RATE, STEREO, bytes), 0, WAV_HEADER_BYTES, 0);
      } finally {
        await handle.close();
      }
      return bytes;
    },
  };
}

interface SilencedStretch {
  channel: RecordingChannel;
  from: number;
  to: number;
}

/** Zeroes one side's samples [from, to) of the written audio, reading and writing a second at a time. */
async function silenceStretch(handle: FileHandle, { channel, from, to }: SilencedStretch, bytes: number) {
  const frameBytes = 2 * STEREO;
  const last = Math.min(to, bytes / frameBytes);
  for (let at = from; at < last; at += ENGINE_SAMPLE_RATE) {
    const frames = Math.min(ENGINE_SAMPLE_RATE, last - at);
    const position = WAV_HEADER_BYTES + at * frameBytes;
    const chunk = Buffer.alloc(frames * frameBytes);
    await handle.read(chunk, 0, chunk.length, position);
    for (let i = 0; i < frames; i++) chunk.writeInt16LE(0, i * frameBytes + 2 * channel);
    await handle.write(chunk, 0, chunk.length, position);
  }
}

/** A recording file to stream to a listener, or null when it is gone. */
export async function openRecordingFile(
  dataDir: string,
  relative: string,
): Promise<{ stream: ReadStream; size: number } | null> {
  const file = path.resolve(root(dataDir), relative);
  try {
    const { size } = await stat(file);
    return { stream: createReadStream(file), size };
  } catch {
    return null;
  }
}

export async function removeRecordingFile(dataDir: string, relative: string): Promise<void> {
  await rm(path.resolve(root(dataDir), relative), { force: true });
}

/** Every recording file on disk, as `{workspaceId, callId, path}` (path relative to DATA_DIR). */
export async function listRecordingFiles(dataDir: string): Promise<{ callId: string; path: string }[]> {
  const dir = path.resolve(root(dataDir), "recordings");
  const workspaces = await readdir(dir).catch(() => []);
  const files: { callId: string; path: string }[] = [];
  for (const workspaceId of workspaces) {
    const names = await readdir(path.join(dir, workspaceId)).catch(() => []);
    for (const name of names) {
      if (name.endsWith(".wav"))
        files.push({ callId: name.slice(0, -4), path: relativePath(workspaceId, name.slice(0, -4)) });
    }
  }
  return files;
}
