// No copied code across modules: an identical run of RUN_LINES or more code lines shared by two
// server modules, two web features, two vendors' folders or two packages fails the check. What they
// share belongs in one place both import (lib/, components/, a shared helper), not in two copies.
import path from "node:path";
import { relativeTo, SOURCE_EXTENSIONS, textOf, walk } from "../files.mjs";

const RUN_LINES = 10;
const ROOTS = ["apps", "packages", "e2e", "bench", "scripts"];

/** Which module a file belongs to, for the question "is this a copy across modules?". */
function unitOf(relative) {
  const parts = relative.split("/");
  const at = (prefix) => prefix.every((segment, i) => parts[i] === segment);
  if (at(["apps", "server", "src", "modules"])) return `server module ${parts[4]}`;
  if (at(["apps", "web", "src", "features"])) return `web feature ${parts[4]}`;
  if (at(["packages", "engine", "src", "providers"])) return `engine vendor ${parts[4]}`;
  if (at(["packages", "contract", "src", "providers"])) return "contract providers";
  return parts.slice(0, parts[0] === "apps" || parts[0] === "packages" ? 2 : 1).join("/");
}

/**
 * The lines that carry code, with their line numbers: blank lines, comments, imports and lone
 * punctuation are passed over, and white space is folded.
 */
function codeLines(text) {
  const lines = [];
  let inImport = false;
  let inComment = false;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim().replace(/\s+/g, " ");
    if (inComment) {
      if (line.includes("*/")) inComment = false;
      return;
    }
    if (line.startsWith("/*")) {
      inComment = !line.includes("*/");
      return;
    }
    if (inImport) {
      if (/\bfrom\s*["']/.test(line) || /^["'].*["'];?$/.test(line)) inImport = false;
      return;
    }
    if (/^(import|export)\b.*\{$/.test(line) && !line.includes("}")) {
      inImport = /^import\b/.test(line) || /^export (type )?\{$/.test(line);
      if (inImport) return;
    }
    if (/^import\b/.test(line)) return;
    if (line === "" || line.startsWith("//") || /^[\s{}()[\];,.]*$/.test(line)) return;
    lines.push({ text: line, number: i + 1 });
  });
  return lines;
}

export function checkCopies(root) {
  const rel = relativeTo(root);
  const files = ROOTS.flatMap((top) => walk(path.join(root, top), (name) => SOURCE_EXTENSIONS.test(name)));
  /** First place of each run of RUN_LINES code lines: key → { file, unit, line }. */
  const firstSeen = new Map();
  /** One report per pair of files: "a|b" → message. */
  const pairs = new Map();
  for (const file of files) {
    const relative = rel(file);
    const unit = unitOf(relative);
    const lines = codeLines(textOf(file));
    for (let i = 0; i + RUN_LINES <= lines.length; i += 1) {
      const key = lines
        .slice(i, i + RUN_LINES)
        .map((l) => l.text)
        .join("\n");
      const seen = firstSeen.get(key);
      if (!seen) {
        firstSeen.set(key, { relative, unit, line: lines[i].number });
        continue;
      }
      if (seen.unit === unit) continue;
      const pair = `${seen.relative}|${relative}`;
      if (!pairs.has(pair)) {
        pairs.set(
          pair,
          `${relative}:${lines[i].number} copies ${RUN_LINES}+ lines of ${seen.relative}:${seen.line} (${unit} and ${seen.unit}); share them from one place`,
        );
      }
    }
  }
  return [...pairs.values()];
}
