#!/usr/bin/env node
// `node scripts/check-structure.mjs [repo-root]`: the module boundaries the architecture promises,
// checked from the source text (run by `npm test` right after lint). Exits 1 naming each offending
// file and import when:
//   1. a file under apps/server/src/modules/X imports apps/server/src/modules/Y/schema.ts (X ≠ Y).
//      The one exception: X/schema.ts may import Y/schema.ts, because a foreign key must name the
//      table it references. Everything else reaches another module's rows through its service;
//   2. the folders of packages/engine/src, or the modules of apps/server/src/modules, import each
//      other in a cycle (production files only: a test may import whatever it drives);
//   3. a file under apps/web/src/features/A imports apps/web/src/features/B (A ≠ B);
//   4. a vendor's name (the id and label of each descriptor in packages/contract/src/providers/)
//      appears, as a whole word, in more than MAX_FILES_PER_VENDOR production files, counting the
//      vendor's adapter folder packages/engine/src/providers/<id>/ as one file. Model ids and URL
//      paths ("anthropic/claude…" on a router, "/openai/v1" in another vendor's URL) are not
//      mentions, nor is a vendor's name inside a longer vendor's name in that vendor's own files
//      ("Azure OpenAI"); see OTHER_MEANINGS for words that also name something else.
// Imports are read with regular expressions (static import/export … from, side-effect imports and
// import("…")); only relative specifiers can point inside the repository.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const MAX_FILES_PER_VENDOR = 3;
const SOURCE_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Text a vendor's name may hide in: source, and JSON such as the web app's locales. */
const TEXT_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|json|css|html)$/;
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "coverage", ".git"]);

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const rel = (file) => path.relative(root, file).split(path.sep).join("/");

function walk(dir, keep) {
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

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s[^;"'`]*?\bfrom\s*["']([^"']+)["']/g,
  /\bimport\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
];

/** The repository files a source file imports (relative specifiers only), with the text as written. */
function importsOf(file) {
  const text = readFileSync(file, "utf8");
  const found = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1];
      if (specifier.startsWith(".")) found.push({ specifier, target: path.resolve(path.dirname(file), specifier) });
    }
  }
  return found;
}

/** The first path segment of `file` below `base`, or null when the file is not inside a folder there. */
function folderUnder(base, file) {
  const inside = path.relative(base, file);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return null;
  const parts = inside.split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}

const isTestFile = (name) => /\.(test|spec)\.[^.]+$/.test(name);
const problems = [];

// 1. Another module's tables.
const modulesDir = path.join(root, "apps/server/src/modules");
const serverFiles = walk(modulesDir, (name) => SOURCE_EXTENSIONS.test(name));
for (const file of serverFiles) {
  const own = folderUnder(modulesDir, file);
  const isSchema = path.basename(file).replace(SOURCE_EXTENSIONS, "") === "schema";
  for (const { specifier, target } of importsOf(file)) {
    const other = folderUnder(modulesDir, target);
    const targetIsSchema = /^schema(\.(ts|js))?$/.test(path.basename(target));
    if (other && other !== own && targetIsSchema && path.dirname(target) === path.join(modulesDir, other)) {
      if (isSchema && path.dirname(file) === path.join(modulesDir, own)) continue; // a foreign key
      problems.push(`${rel(file)} imports "${specifier}": another module's tables; call its service instead`);
    }
  }
}

// 2. Cycles between folders.
/** Edges folder → folder from the relative imports of every file under `base`, with one example each. */
function folderGraph(base) {
  const graph = new Map();
  // Tests may reach into any folder (a harness drives the session); the shape is production's.
  for (const file of walk(base, (name) => SOURCE_EXTENSIONS.test(name) && !isTestFile(name))) {
    const from = folderUnder(base, file);
    if (!from) continue;
    for (const { specifier, target } of importsOf(file)) {
      const to = folderUnder(base, target);
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, `${rel(file)} imports "${specifier}"`);
    }
  }
  return graph;
}

/** Every strongly connected group of more than one folder (Tarjan), each a cycle to report. */
function cyclesOf(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

function checkCycles(base, what) {
  const graph = folderGraph(base);
  for (const group of cyclesOf(graph)) {
    const members = new Set(group);
    const edges = [];
    for (const from of group) {
      for (const [to, example] of graph.get(from) ?? [])
        if (members.has(to)) edges.push(`    ${from} → ${to}: ${example}`);
    }
    problems.push(`import cycle between ${what} ${group.join(", ")}:\n${edges.join("\n")}`);
  }
}
checkCycles(path.join(root, "packages/engine/src"), "engine folders");
checkCycles(modulesDir, "server modules");

// 3. Web features importing each other.
const featuresDir = path.join(root, "apps/web/src/features");
for (const file of walk(featuresDir, (name) => SOURCE_EXTENSIONS.test(name))) {
  const own = folderUnder(featuresDir, file);
  for (const { specifier, target } of importsOf(file)) {
    const other = folderUnder(featuresDir, target);
    if (other && other !== own) problems.push(`${rel(file)} imports "${specifier}": features do not import each other`);
  }
}

// 4. A vendor's name spread over the code.
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A whole word, case-insensitive; "-" counts as part of a word, so "openai" ≠ "azure-openai". */
const wholeWord = (term) => new RegExp(`(?<![\\w-])${escapeRegExp(term)}(?![\\w-])`, "i");

/**
 * Words that also name something that is not the vendor, and the files where they do: only the
 * vendor's label counts there. Google is both the Gemini vendor and a sign-in (OpenID Connect) provider.
 */
const OTHER_MEANINGS = {
  // "whatsapp" is also a kind of phone number and a call channel of the product (spec §2, §5, §7:
  // the WhatsApp form, /phone-numbers/whatsapp/integrate): the contract's channel and number kinds,
  // the server's settings, the channel's own module and the code that tells number kinds apart
  // name it in that sense. The vendor's facts stay in its descriptor and engine folder.
  whatsapp:
    /^(apps\/server\/src\/(app\.ts|config\.ts|modules\/whatsapp\/|modules\/phone-numbers\/|modules\/telephony\/)|packages\/contract\/src\/(calls|phone-numbers)\.ts|apps\/web\/src\/(features\/phone-numbers\/|api\/phone-numbers\.ts))/,
  google:
    /^(apps\/server\/src\/(config\.ts|modules\/auth\/)|apps\/web\/src\/(features\/auth\/|features\/profile\/(components\/sign-in-methods|locales\/)|i18n\/locales\/)|packages\/contract\/src\/auth\.ts)/,
};

/**
 * The text with model ids and URL paths blanked out: "anthropic/claude-sonnet-4.5" on a router's
 * list, "/openai/v1" in another vendor's URL and `m("mistral", "Mistral")` (a model on a local server) are
 * facts of the vendor that serves them, not mentions of the vendor they are named after. Import
 * specifiers are kept: importing a vendor's file is a mention.
 */
function withoutModelIdsAndPaths(text) {
  return text
    .replace(/\bm\(\s*"[^"\n]*"(\s*,\s*"[^"\n]*")?\s*\)/g, "m()")
    .replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)?(["'`])((?:\\.|(?!\2)[^\\\n])*)\2/g, (whole, lead, _q, body) =>
      !lead && body.includes("/") ? '""' : whole,
    );
}

function vendors() {
  const dir = path.join(root, "packages/contract/src/providers");
  if (!existsSync(dir)) return [];
  const list = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/\.ts$/.test(name) || /\.test\.ts$/.test(name) || name === "index.ts" || name === "types.ts") continue;
    const id = name.slice(0, -3);
    const text = readFileSync(path.join(dir, name), "utf8");
    // A descriptor names its own id (the file name), then its label; a shared helper does not.
    const at = text.search(new RegExp(`\\bid:\\s*"${escapeRegExp(id)}"`));
    const label = at < 0 ? undefined : text.slice(at).match(/\blabel:\s*"([^"]+)"/)?.[1];
    // A provider kept off the Integrations page is built in (the offline voice), not a vendor.
    const builtIn = /\bintegrationKinds:\s*\[\s*\]/.test(text);
    if (label && !builtIn) list.push({ id, label });
  }
  return list;
}

function isProductionFile(file) {
  const parts = rel(file).split("/");
  if (parts.some((part) => part === "test" || part === "testing" || part === "__tests__")) return false;
  return !isTestFile(parts.at(-1));
}

const productionFiles = ["packages", "apps"].flatMap((top) => {
  const topDir = path.join(root, top);
  if (!existsSync(topDir)) return [];
  return readdirSync(topDir)
    .map((pkg) => path.join(topDir, pkg, "src"))
    .filter((src) => existsSync(src) && statSync(src).isDirectory())
    .flatMap((src) => walk(src, (name) => TEXT_EXTENSIONS.test(name)))
    .filter(isProductionFile);
});
const texts = new Map(productionFiles.map((file) => [rel(file), withoutModelIdsAndPaths(readFileSync(file, "utf8"))]));

const vendorList = vendors();
/** The files that belong to a vendor: its descriptor and its adapter folder. */
const ownsFile = (vendor, name) =>
  name === `packages/contract/src/providers/${vendor.id}.ts` ||
  name.startsWith(`packages/engine/src/providers/${vendor.id}/`);

for (const vendor of vendorList) {
  const idPattern = wholeWord(vendor.id);
  const labelPattern = wholeWord(vendor.label);
  // "Azure OpenAI" contains "OpenAI": Azure's own files name Azure's product, not OpenAI.
  const containers = vendorList.filter((other) => other !== vendor && labelPattern.test(other.label));
  const adapterDir = `packages/engine/src/providers/${vendor.id}/`;
  const places = new Set();
  for (const [name, text] of texts) {
    if (containers.some((other) => ownsFile(other, name))) continue;
    const idCounts = !OTHER_MEANINGS[vendor.id]?.test(name);
    if (!labelPattern.test(text) && !(idCounts && idPattern.test(text))) continue;
    places.add(name.startsWith(adapterDir) ? `${adapterDir} (adapter folder)` : name);
  }
  if (places.size > MAX_FILES_PER_VENDOR) {
    const list = [...places].sort().map((p) => `    ${p}`);
    problems.push(
      `vendor "${vendor.id}" (${vendor.label}) is named in ${places.size} production files, at most ${MAX_FILES_PER_VENDOR}:\n${list.join("\n")}`,
    );
  }
}

if (problems.length > 0) {
  console.error(`Structure check failed (${problems.length}):`);
  for (const problem of problems) console.error(`  ✘ ${problem}`);
  process.exit(1);
}
console.log("Structure check passed.");
