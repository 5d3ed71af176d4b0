import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The built embed script and its precompressed copies, read once. */
export interface EmbedScript {
  raw: Buffer;
  gzip: Buffer | null;
  brotli: Buffer | null;
  etag: string;
}

/**
 * Where the build put the widget: beside the bundled server (dist/widget) or, when the server runs
 * from its sources (tests, `npm run dev`), in apps/server/dist/widget.
 */
export function embedScriptDir(): string {
  const candidates = [
    path.join(import.meta.dirname, "widget"),
    path.resolve(import.meta.dirname, "../../../dist/widget"),
  ];
  return candidates.find((dir) => existsSync(path.join(dir, "widget.js"))) ?? (candidates[1] as string);
}

export function loadEmbedScript(dir = embedScriptDir()): EmbedScript | null {
  const file = path.join(dir, "widget.js");
  if (!existsSync(file)) return null;
  const raw = readFileSync(file);
  const copy = (ext: string) => (existsSync(file + ext) ? readFileSync(file + ext) : null);
  const etag = `"${createHash("sha256").update(raw).digest("base64url").slice(0, 22)}"`;
  return { raw, gzip: copy(".gz"), brotli: copy(".br"), etag };
}

/** The smallest copy the client accepts: brotli, then gzip, then the plain file. */
export function pickEncoding(script: EmbedScript, acceptEncoding: string | undefined) {
  const accepts = (name: string) => new RegExp(`\\b${name}\\b`).test(acceptEncoding ?? "");
  if (script.brotli && accepts("br")) return { body: script.brotli, encoding: "br" };
  if (script.gzip && accepts("gzip")) return { body: script.gzip, encoding: "gzip" };
  return { body: script.raw, encoding: null };
}
