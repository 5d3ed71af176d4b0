// Who may import whom: a module's tables are its own, the server's foundation names no module, and
// web features do not import each other.
import { existsSync } from "node:fs";
import path from "node:path";
import { folderUnder, importsOf, relativeTo, SOURCE_EXTENSIONS, walk } from "../files.mjs";

/**
 * The server's ground floor: what every module builds on. It declares ports (context.ts) and the
 * composition root (app.ts, create-context.ts) hands it the modules' implementations.
 */
const FOUNDATION = ["db", "lib", "jobs", "plugins", "context.ts", "config.ts"];

/** A file under modules/X imports modules/Y/schema.ts (X ≠ Y); only X/schema.ts may (a foreign key). */
function anotherModulesTables(root) {
  const rel = relativeTo(root);
  const modulesDir = path.join(root, "apps/server/src/modules");
  const problems = [];
  for (const file of walk(modulesDir, (name) => SOURCE_EXTENSIONS.test(name))) {
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
  return problems;
}

/** A file of the foundation imports anything under modules/. */
function foundationReachingUp(root) {
  const rel = relativeTo(root);
  const serverDir = path.join(root, "apps/server/src");
  const modulesDir = path.join(serverDir, "modules");
  const files = FOUNDATION.flatMap((entry) => {
    const place = path.join(serverDir, entry);
    if (!SOURCE_EXTENSIONS.test(entry)) return walk(place, (name) => SOURCE_EXTENSIONS.test(name));
    return existsSync(place) ? [place] : [];
  });
  const problems = [];
  for (const file of files) {
    for (const { specifier, target } of importsOf(file)) {
      if (!path.relative(modulesDir, target).startsWith("..")) {
        problems.push(
          `${rel(file)} imports "${specifier}": the foundation (${FOUNDATION.join(", ")}) never imports a module; declare a port and let app.ts or create-context.ts hand in the implementation`,
        );
      }
    }
  }
  return problems;
}

/** A file under apps/web/src/features/A imports apps/web/src/features/B (A ≠ B). */
function featuresImportingEachOther(root) {
  const rel = relativeTo(root);
  const featuresDir = path.join(root, "apps/web/src/features");
  const problems = [];
  for (const file of walk(featuresDir, (name) => SOURCE_EXTENSIONS.test(name))) {
    const own = folderUnder(featuresDir, file);
    for (const { specifier, target } of importsOf(file)) {
      const other = folderUnder(featuresDir, target);
      if (other && other !== own)
        problems.push(`${rel(file)} imports "${specifier}": features do not import each other`);
    }
  }
  return problems;
}

export function checkBoundaries(root) {
  return [...anotherModulesTables(root), ...foundationReachingUp(root), ...featuresImportingEachOther(root)];
}
