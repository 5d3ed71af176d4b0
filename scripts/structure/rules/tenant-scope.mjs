// Tenant scoping, checked: a statement that reads or writes a workspace-owned table goes through
// `scoped(table, tenant)` (apps/server/src/lib/tenant-scope.ts), or lives in a file named
// `*-across-workspaces.ts`, the one kind of place where a query may cross workspaces on purpose.
import path from "node:path";
import { isTestFile, relativeTo, SOURCE_EXTENSIONS, textOf, walk } from "../files.mjs";

const CROSS_WORKSPACE_FILE = /-across-workspaces\.ts$/;

/**
 * The SQL names of the tables with a workspace_id column, read from the migrations (the truth of
 * what the database holds, however a schema file spells its columns).
 */
function workspaceOwnedSqlTables(root) {
  const owned = new Set();
  for (const file of walk(path.join(root, "apps/server/drizzle"), (name) => name.endsWith(".sql"))) {
    const text = textOf(file);
    for (const [, table, columns] of text.matchAll(/CREATE TABLE(?: IF NOT EXISTS)? "(\w+)"\s*\(([\s\S]*?)\n\);/g)) {
      if (/"workspace_id"/.test(columns)) owned.add(table);
    }
    for (const [, table] of text.matchAll(/ALTER TABLE "(\w+)" ADD COLUMN "workspace_id"/g)) owned.add(table);
  }
  return owned;
}

/** The TypeScript names of those tables: `export const x = pgTable("sql_name", …)` or a table factory. */
function workspaceOwnedTables(root, serverFiles) {
  const sqlNames = workspaceOwnedSqlTables(root);
  const names = new Set();
  for (const file of serverFiles.filter((f) => /(^|\/)schema\.ts$/.test(f))) {
    for (const [, name, sqlName] of textOf(file).matchAll(/export const (\w+)\s*=\s*\w+\(\s*"(\w+)"/g)) {
      if (sqlNames.has(sqlName)) names.add(name);
    }
  }
  return names;
}

const VERBS = { from: "reads", insert: "inserts into", update: "updates", delete: "deletes from" };
const QUERY = /\.(from|insert|update|delete)\(\s*(\w+)\s*\)/g;

/** The statement around `at`: from the end of the previous one to the next semicolon. */
function statementAround(text, at) {
  const start = Math.max(text.lastIndexOf(";", at), text.lastIndexOf("{\n", at)) + 1;
  const end = text.indexOf(";", at);
  return text.slice(start, end < 0 ? text.length : end);
}

/** The body of `function name(` or `const name = …` in the text, up to the next top-level declaration. */
function bodyOf(text, name) {
  const at = text.search(new RegExp(`(function\\s+${name}\\b|const\\s+${name}\\s*=)`));
  if (at < 0) return "";
  const next = text.slice(at + 1).search(/\n(export |async function |function |const )/);
  return text.slice(at, next < 0 ? text.length : at + 1 + next);
}

/**
 * Whether the statement scopes its table: inline (`scoped(t, tenant).where(…)`), through a value
 * built with `scoped(t, …)` in the file (`const where = scoped(t, tenant).where(…)`), or through a
 * function of the file, given the tenant, that builds the condition with `scoped(t, …)`.
 */
function isScoped(text, statement, table) {
  const scopes = (code) => new RegExp(`\\bscoped\\(\\s*${table}\\s*,`).test(code);
  const scopesOrDelegates = (code) =>
    scopes(code) || [...code.matchAll(/\b(\w+)\(\s*tenant\b/g)].some(([, name]) => scopes(bodyOf(text, name)));
  if (scopesOrDelegates(statement)) return true;
  for (const [, name, value] of text.matchAll(
    /(?:const|let) (\w+)(?::[^=;]+)?\s*=((?:(?!\b(?:const|let) )[\s\S])*?);\n/g,
  )) {
    if (new RegExp(`\\b${name}\\b`).test(statement) && scopesOrDelegates(value)) return true;
  }
  return false;
}

export function checkTenantScope(root) {
  const rel = relativeTo(root);
  const serverFiles = walk(path.join(root, "apps/server/src"), (name) => SOURCE_EXTENSIONS.test(name));
  const owned = workspaceOwnedTables(root, serverFiles);
  const problems = [];
  for (const file of serverFiles) {
    const name = path.basename(file);
    if (isTestFile(name) || CROSS_WORKSPACE_FILE.test(name)) continue;
    const text = textOf(file);
    for (const match of text.matchAll(QUERY)) {
      const table = match[2];
      if (!owned.has(table)) continue;
      const statement = statementAround(text, match.index);
      if (isScoped(text, statement, table)) continue;
      const line = text.slice(0, match.index).split("\n").length;
      problems.push(
        `${rel(file)}:${line} ${VERBS[match[1]]} workspace-owned table ${table} without scoped(${table}, tenant); a query that crosses workspaces on purpose belongs in a *-across-workspaces.ts file`,
      );
    }
  }
  return problems;
}
