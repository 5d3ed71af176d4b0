// One vocabulary: ARCHITECTURE.md's table names every server module and every web feature by the
// product feature it serves, with its contract file and engine folder; a name missing from the table,
// or a name in the table that does not exist, fails the check.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { foldersIn } from "../files.mjs";

const TABLE_HEADING = /^##+ .*vocabulary/im;

/** The rows of the first Markdown table after the vocabulary heading, each a list of cells. */
function tableRows(markdown) {
  const at = markdown.search(TABLE_HEADING);
  if (at < 0) return null;
  const rows = [];
  for (const line of markdown.slice(at).split("\n").slice(1)) {
    if (line.startsWith("|"))
      rows.push(
        line
          .split("|")
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    else if (rows.length > 0) break;
  }
  // The header and its separator line.
  return rows.slice(2);
}

/** The `code` names in a cell: "`assistants`, `live-call`" → ["assistants", "live-call"]. */
const namesIn = (cell = "") => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** Columns, by their place in the table: product feature | web feature | server module | contract file | engine folder. */
const COLUMNS = {
  web: { index: 1, dir: "apps/web/src/features", what: "web feature" },
  server: { index: 2, dir: "apps/server/src/modules", what: "server module" },
  contract: { index: 3, dir: "packages/contract/src", what: "contract file" },
  engine: { index: 4, dir: "packages/engine/src", what: "engine folder" },
};

export function checkVocabulary(root) {
  const file = path.join(root, "ARCHITECTURE.md");
  const hasCode = existsSync(path.join(root, COLUMNS.server.dir)) || existsSync(path.join(root, COLUMNS.web.dir));
  if (!existsSync(file)) return hasCode ? ["ARCHITECTURE.md is missing: it holds the vocabulary table"] : [];
  const rows = tableRows(readFileSync(file, "utf8"));
  if (!rows) return ["ARCHITECTURE.md has no vocabulary table (a heading with the word “Vocabulary”, then the table)"];
  const problems = [];
  for (const column of Object.values(COLUMNS)) {
    const named = new Set(rows.flatMap((row) => namesIn(row[column.index])));
    if (column === COLUMNS.web || column === COLUMNS.server) {
      for (const folder of foldersIn(path.join(root, column.dir))) {
        if (!named.has(folder)) {
          problems.push(
            `${column.dir}/${folder} is missing from ARCHITECTURE.md's vocabulary table (${column.what} column)`,
          );
        }
      }
    }
    for (const name of named) {
      if (!existsSync(path.join(root, column.dir, name))) {
        problems.push(
          `ARCHITECTURE.md's vocabulary table names ${column.what} \`${name}\`, which is not in ${column.dir}`,
        );
      }
    }
  }
  return problems;
}
