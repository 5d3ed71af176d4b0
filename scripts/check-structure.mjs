#!/usr/bin/env node
// `node scripts/check-structure.mjs [repo-root]`: the layering ARCHITECTURE.md promises, checked from
// the source text (run by `npm test` right after lint). Exits 1 naming each offending file when:
//   1. boundaries (structure/rules/boundaries.mjs): a module imports another module's schema.ts
//      (only schema.ts → schema.ts, for a foreign key); the server's foundation (db/, lib/, jobs/,
//      plugins/, context.ts, config.ts) imports anything under modules/; a web feature imports another;
//   2. cycles (cycles.mjs): engine folders or server modules import each other in a circle
//      (production files), or single files of the server or the contract do (type-only imports included);
//   3. tenant scope (tenant-scope.mjs): a statement reads or writes a workspace-owned table without
//      `scoped(table, tenant)`, outside a file named *-across-workspaces.ts;
//   4. vocabulary (vocabulary.mjs): a server module or web feature is missing from ARCHITECTURE.md's
//      vocabulary table, or the table names one that does not exist;
//   5. copies (copies.mjs): two modules, features, vendors' folders or packages share an identical run
//      of 10 or more code lines;
//   6. vendors (vendors.mjs): a vendor's id or label appears in more than three production files
//      beyond its descriptor and its adapter folder.
// Imports are read with regular expressions (static import/export … from, side-effect imports and
// import("…")); only relative specifiers can point inside the repository.
import path from "node:path";
import { checkBoundaries } from "./structure/rules/boundaries.mjs";
import { checkCopies } from "./structure/rules/copies.mjs";
import { checkCycles } from "./structure/rules/cycles.mjs";
import { checkTenantScope } from "./structure/rules/tenant-scope.mjs";
import { checkVendors } from "./structure/rules/vendors.mjs";
import { checkVocabulary } from "./structure/rules/vocabulary.mjs";

const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const problems = [checkBoundaries, checkCycles, checkTenantScope, checkVocabulary, checkCopies, checkVendors].flatMap(
  (check) => check(root),
);

if (problems.length > 0) {
  console.error(`Structure check failed (${problems.length}):`);
  for (const problem of problems) console.error(`  ✘ ${problem}`);
  process.exit(1);
}
console.log("Structure check passed.");
