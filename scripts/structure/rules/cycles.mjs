// Import cycles: between the folders of the engine and the modules of the server (production files),
// and between single files of the server and the contract (type-only imports included: a type
// circle still ties two files so neither can be read, moved or tested without the other).
import { existsSync } from "node:fs";
import path from "node:path";
import { folderUnder, importsOf, isTestFile, relativeTo, SOURCE_EXTENSIONS, walk } from "../files.mjs";
import { addEdge, describeCycles } from "../graph.mjs";

/** Edges folder → folder from the imports of every production file under `base`. */
function folderGraph(root, base) {
  const rel = relativeTo(root);
  const graph = new Map();
  // Tests may reach into any folder (a harness drives the session); the shape is production's.
  for (const file of walk(base, (name) => SOURCE_EXTENSIONS.test(name) && !isTestFile(name))) {
    const from = folderUnder(base, file);
    if (!from) continue;
    for (const { specifier, target } of importsOf(file)) {
      const to = folderUnder(base, target);
      if (to && to !== from) addEdge(graph, from, to, `${rel(file)} imports "${specifier}"`);
    }
  }
  return graph;
}

/** Edges file → file from the imports of every source file under `base` (tests included). */
function fileGraph(root, base) {
  const rel = relativeTo(root);
  const graph = new Map();
  const resolve = (target) =>
    [target, `${target}.ts`, `${target}.tsx`, path.join(target, "index.ts")].find(
      (candidate) => SOURCE_EXTENSIONS.test(candidate) && existsSync(candidate),
    );
  for (const file of walk(base, (name) => SOURCE_EXTENSIONS.test(name))) {
    for (const { specifier, target } of importsOf(file)) {
      const to = resolve(target.replace(/\.js$/, ".ts"));
      if (to && !path.relative(base, to).startsWith("..") && to !== file) {
        addEdge(graph, rel(file), rel(to), `"${specifier}"`);
      }
    }
  }
  return graph;
}

export function checkCycles(root) {
  return [
    ...describeCycles(folderGraph(root, path.join(root, "packages/engine/src")), "engine folders"),
    ...describeCycles(folderGraph(root, path.join(root, "apps/server/src/modules")), "server modules"),
    ...describeCycles(fileGraph(root, path.join(root, "apps/server/src")), "server files"),
    ...describeCycles(fileGraph(root, path.join(root, "packages/contract/src")), "contract files"),
  ];
}
