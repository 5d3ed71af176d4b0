// What every rule of the structure check reads: the repository's source files and their imports.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "coverage", ".git"]);

/** Every file below `dir` whose name `keep` accepts, skipping dependencies and build output. */
export function walk(dir, keep) {
  if (!existsSync(dir)) return [];
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...walk(path.join(dir, entry.name), keep));
    } else if (keep(entry.name)) {
      found.push(path.join(dir, entry.name));
    }
  }
  return found;
}

/** The direct sub-folders of `dir`, sorted. */
export function foldersIn(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !SKIPPED_DIRS.has(entry.name))
    .map((entry) => entry.name)
    .sort();
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
];

const cache = new Map();
/** A file's text, read once however many rules look at it. */
export function textOf(file) {
  if (!cache.has(file)) cache.set(file, readFileSync(file, "utf8"));
  return cache.get(file);
}

/**
 * The repository files a source file imports, type-only imports included (relative specifiers
 * only: nothing else can point inside the repository), with the specifier as written.
 */
export function importsOf(file) {
  const found = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of textOf(file).matchAll(pattern)) {
      const specifier = match[1];
      if (specifier.startsWith(".")) found.push({ specifier, target: path.resolve(path.dirname(file), specifier) });
    }
  }
  return found;
}

/** The first path segment of `file` below `base`, or null when the file is not inside a folder there. */
export function folderUnder(base, file) {
  const inside = path.relative(base, file);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return null;
  const parts = inside.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

export const isTestFile = (name) => /\.(test|spec)\.[^.]+$/.test(name);

/** Paths relative to the repository root, with forward slashes, for messages. */
export const relativeTo = (root) => (file) => path.relative(root, file).split(path.sep).join("/");
