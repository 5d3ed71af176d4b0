import { inflateRawSync } from "node:zlib";
import { DOCUMENT_LIMITS } from "@parley/contract";
import { ExtractionError } from "./section.ts";

/** Where one file of the archive is, as its central directory entry says. */
interface Entry {
  flags: number;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The reading side of an archive, as mammoth asks for it (its `file` input). */
export interface ZipParts {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<string | Uint8Array>;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** Sizes and counts at their maximum mean "look in the ZIP64 record": a 10 MB Word file never needs one. */
const ZIP64_MARK = 0xffffffff;

const unreadable = (why: string) => new ExtractionError(`The Word document could not be read (${why}).`);

export const tooLargeUnzipped = () =>
  new ExtractionError(
    `The Word document unpacks to more than ${DOCUMENT_LIMITS.unzippedBytes / (1024 * 1024)} MB, more than the knowledge base reads from one file. Split it into smaller files.`,
    "too_large",
  );

function endOfDirectory(data: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const earliest = Math.max(0, data.length - 22 - 0xffff);
  for (let at = data.length - 22; at >= earliest; at -= 1) {
    if (data.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw unreadable("it is not a ZIP archive");
}

function readDirectory(data: Buffer): Map<string, Entry> {
  const end = endOfDirectory(data);
  const total = data.readUInt16LE(end + 10);
  const offset = data.readUInt32LE(end + 16);
  if (total === 0xffff || offset === ZIP64_MARK) throw unreadable("ZIP64 archives are not supported");
  if (total > DOCUMENT_LIMITS.zipEntries) {
    throw new ExtractionError(
      `The Word document holds ${total.toLocaleString("en-US")} files; the knowledge base reads documents of at most ${DOCUMENT_LIMITS.zipEntries.toLocaleString("en-US")}.`,
      "too_large",
    );
  }
  const entries = new Map<string, Entry>();
  let at = offset;
  for (let i = 0; i < total; i += 1) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== DIRECTORY_ENTRY)
      throw unreadable("its directory is damaged");
    const nameLength = data.readUInt16LE(at + 28);
    const entry: Entry = {
      flags: data.readUInt16LE(at + 8),
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      localOffset: data.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === ZIP64_MARK) throw unreadable("ZIP64 archives are not supported");
    entries.set(data.toString("utf8", at + 46, at + 46 + nameLength), entry);
    at += 46 + nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * A Word file's archive whose parts are unpacked only when asked for, all of them together at most
 * DOCUMENT_LIMITS.unzippedBytes. The bound is zlib's own (`maxOutputLength`): inflating stops there,
 * so a zip bomb never unpacks past it, whatever sizes its directory claims.
 */
export function boundedZip(data: Buffer, budget: number = DOCUMENT_LIMITS.unzippedBytes): ZipParts {
  const entries = readDirectory(data);
  let left = budget;
  const unpack = (name: string): Buffer => {
    const entry = entries.get(name);
    if (!entry) throw unreadable(`${name} is missing`);
    if (entry.flags & 1) throw unreadable("it is encrypted");
    const at = entry.localOffset;
    if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL_HEADER) throw unreadable(`${name} is damaged`);
    const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
    const packed = data.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) {
      if (packed.length > left) throw tooLargeUnzipped();
      left -= packed.length;
      return packed;
    }
    if (entry.method !== 8) throw unreadable(`${name} is packed in a way Word does not use`);
    let raw: Buffer;
    try {
      raw = inflateRawSync(packed, { maxOutputLength: Math.max(1, left) });
    } catch (error) {
      if (error instanceof RangeError) throw tooLargeUnzipped();
      throw unreadable(`${name} is damaged`);
    }
    left -= raw.length;
    return raw;
  };
  return {
    exists: (name) => entries.has(name),
    read: async (name, encoding) => {
      const raw = unpack(name);
      return encoding ? raw.toString("utf8") : new Uint8Array(raw);
    },
  };
}
