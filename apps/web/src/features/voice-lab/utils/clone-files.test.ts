import { VOICE_CLONE_MAX_FILE_BYTES } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { addFiles, cloneFilesProblems, isAudioFile } from "./clone-files.ts";

const wav = (name: string, size = 1000, lastModified = 1) => ({ name, size, type: "audio/wav", lastModified });

describe("clone file checks", () => {
  it("ask for at least one file", () => {
    expect(cloneFilesProblems([])).toEqual([{ kind: "none" }]);
  });

  it("accept one to five audio files of at most 10 MB", () => {
    expect(cloneFilesProblems([wav("a.wav", VOICE_CLONE_MAX_FILE_BYTES)])).toEqual([]);
    expect(cloneFilesProblems(["1", "2", "3", "4", "5"].map((n) => wav(`${n}.wav`)))).toEqual([]);
  });

  it("refuse a sixth file", () => {
    const six = ["1", "2", "3", "4", "5", "6"].map((n) => wav(`${n}.wav`));
    expect(cloneFilesProblems(six)).toEqual([{ kind: "tooMany", max: 5 }]);
  });

  it("name each file over 10 MB", () => {
    expect(cloneFilesProblems([wav("big.wav", VOICE_CLONE_MAX_FILE_BYTES + 1), wav("ok.wav")])).toEqual([
      { kind: "tooLarge", name: "big.wav", maxMb: 10 },
    ]);
  });

  it("name each file that is not audio", () => {
    expect(cloneFilesProblems([{ name: "notes.txt", size: 10, type: "text/plain" }])).toEqual([
      { kind: "notAudio", name: "notes.txt" },
    ]);
  });

  it("recognise audio by type or, without a type, by extension", () => {
    expect(isAudioFile({ name: "x", size: 1, type: "audio/mpeg" })).toBe(true);
    expect(isAudioFile({ name: "take.M4A", size: 1, type: "" })).toBe(true);
    expect(isAudioFile({ name: "take.pdf", size: 1, type: "" })).toBe(false);
  });
});

describe("adding picked files", () => {
  it("keeps a file picked twice once", () => {
    const a = wav("a.wav");
    expect(addFiles([a], [wav("a.wav"), wav("b.wav")]).map((f) => f.name)).toEqual(["a.wav", "b.wav"]);
  });

  it("keeps two different files of the same name", () => {
    expect(addFiles([wav("a.wav", 10)], [wav("a.wav", 20)])).toHaveLength(2);
  });
});
