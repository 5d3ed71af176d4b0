import { VOICE_CLONE_MAX_FILE_BYTES, VOICE_CLONE_MAX_FILES } from "@parley/contract";

/** The parts of a File the checks read (so they run without a browser). */
export interface FileInfo {
  name: string;
  size: number;
  type: string;
  lastModified?: number;
}

export type CloneFilesProblem =
  | { kind: "none" }
  | { kind: "tooMany"; max: number }
  | { kind: "tooLarge"; name: string; maxMb: number }
  | { kind: "notAudio"; name: string };

export const MAX_FILE_MB = VOICE_CLONE_MAX_FILE_BYTES / (1024 * 1024);

// The extensions the server also accepts when a browser sends no audio/* type.
const AUDIO_EXTENSIONS = /\.(wav|mp3|m4a|mp4|aac|ogg|oga|opus|webm|flac)$/i;

export const isAudioFile = (file: FileInfo) => file.type.startsWith("audio/") || AUDIO_EXTENSIONS.test(file.name);

/**
 * What is wrong with the files chosen for a clone, checked in the browser before a 50 MB upload:
 * none chosen, more than 5, a file over 10 MB, or a file that is not audio. Empty when all is well.
 */
export function cloneFilesProblems(files: readonly FileInfo[]): CloneFilesProblem[] {
  if (files.length === 0) return [{ kind: "none" }];
  const problems: CloneFilesProblem[] = [];
  if (files.length > VOICE_CLONE_MAX_FILES) problems.push({ kind: "tooMany", max: VOICE_CLONE_MAX_FILES });
  for (const file of files) {
    if (!isAudioFile(file)) problems.push({ kind: "notAudio", name: file.name });
    else if (file.size > VOICE_CLONE_MAX_FILE_BYTES)
      problems.push({ kind: "tooLarge", name: file.name, maxMb: MAX_FILE_MB });
  }
  return problems;
}

const sameFile = (a: FileInfo, b: FileInfo) =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

/** Adds newly picked files to the chosen ones; picking the same file twice keeps it once. */
export function addFiles<T extends FileInfo>(current: readonly T[], picked: readonly T[]): T[] {
  const next = [...current];
  for (const file of picked) if (!next.some((f) => sameFile(f, file))) next.push(file);
  return next;
}
