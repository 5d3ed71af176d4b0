import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../../scripts/check-structure.mjs");
const roots: string[] = [];

/** A small repository laid out like ours: path → file text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "parley-structure-"));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

function check(root: string) {
  const result = spawnSync(process.execPath, [script, root], { encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const descriptor = (id: string, label: string) =>
  `export const ${id.replace(/\W/g, "")} = { id: "${id}", label: "${label}" };\n`;

/** A clean tree that exercises every rule without breaking any. */
const clean: Record<string, string> = {
  "apps/server/src/modules/users/schema.ts": "export const users = {};\n",
  "apps/server/src/modules/users/service.ts":
    'import { users } from "./schema.ts";\nexport const findUser = () => users;\n',
  "apps/server/src/modules/workspaces/schema.ts":
    'import { users } from "../users/schema.ts";\nexport const ws = { users };\n',
  "apps/server/src/modules/workspaces/service.ts":
    'import { findUser } from "../users/service.ts";\nexport const x = findUser;\n',
  "packages/engine/src/audio/pcm.ts": "export const pcm = 1;\n",
  "packages/engine/src/session/call.ts": 'import { pcm } from "../audio/pcm.ts";\nexport const call = pcm;\n',
  "packages/engine/src/audio/pcm.test.ts": 'import { call } from "../session/call.ts";\nvoid call;\n',
  "apps/web/src/features/a/page.tsx": 'import { api } from "../../lib/api.ts";\nexport const A = api;\n',
  "apps/web/src/lib/api.ts": "export const api = 1;\n",
  "packages/contract/src/providers/index.ts": "export {};\n",
  // Helpers the descriptors share carry field labels but no descriptor id: they are not vendors.
  "packages/contract/src/providers/shared.ts": 'export const language = { name: "language", label: "Language" };\n',
  // The descriptor's label is the one after its id, not a setting's label above it.
  "packages/contract/src/providers/acme.ts": `const speed = { label: "Speed" };\n${descriptor("acme", "Acme Voice")}`,
  "packages/contract/src/providers/acme-cloud.ts": descriptor("acme-cloud", "Cloud Co"),
  "packages/engine/src/providers/acme/stt.ts": "// acme streaming\n",
  "packages/engine/src/providers/acme/tts.ts": "// Acme Voice synthesis\n",
  "apps/web/src/i18n/locales/en.json": '{ "acme": "Acme Voice" }\n',
  // Tests and test doubles may name a vendor as often as they like.
  "apps/server/test/acme.test.ts": "// acme\n",
  "packages/engine/testing/acme-server.ts": "// acme\n",
  "apps/server/src/modules/users/acme.test.ts": "// acme\n",
  // "acme" inside "acme-cloud" is another vendor's name, not this one's.
  "apps/server/src/modules/users/clouds.ts": "// acme-cloud acme_key\n",
  // The foundation imports the foundation; the composition root may import modules.
  "apps/server/src/db/client.ts": 'import { secret } from "../lib/crypto.ts";\nexport const db = secret;\n',
  "apps/server/src/lib/crypto.ts": "export const secret = 1;\n",
  "apps/server/src/app.ts": 'import { findUser } from "./modules/users/service.ts";\nexport const app = findUser;\n',
  // Tenant scope: a workspace-owned table, queried through scoped() or in a cross-workspace file.
  "apps/server/drizzle/0000_init.sql":
    'CREATE TABLE "notes" (\n\t"id" uuid PRIMARY KEY,\n\t"workspace_id" uuid NOT NULL\n);\nCREATE TABLE "tiers" (\n\t"id" uuid PRIMARY KEY\n);\n',
  "apps/server/src/modules/notes/schema.ts":
    'export const notes = pgTable("notes", { workspaceId: uuid("workspace_id") });\nexport const tiers = pgTable("tiers", {});\n',
  "apps/server/src/modules/notes/service.ts": [
    'import { notes, tiers } from "./schema.ts";',
    "export const list = (db, tenant) => db.select().from(notes).where(scoped(notes, tenant).where());",
    "export async function page(db, tenant) {",
    "  const where = scoped(notes, tenant).where();",
    "  return db.select().from(notes).where(where);",
    "}",
    "export const allTiers = (db) => db.select().from(tiers);",
    "",
  ].join("\n"),
  "apps/server/src/modules/notes/sweep-across-workspaces.ts":
    'import { notes } from "./schema.ts";\n// The nightly sweep reads every workspace\'s notes.\nexport const all = (db) => db.select().from(notes);\n',
  "ARCHITECTURE.md": [
    "# Map",
    "",
    "## Vocabulary",
    "",
    "| product feature | web feature | server module | contract file | engine folder |",
    "|---|---|---|---|---|",
    "| Accounts | `a` | `users`, `workspaces` | | `audio` |",
    "| Notes | | `notes` | | `session` |",
    "",
  ].join("\n"),
};

/** The output of the check over the clean tree with `files` on top, which must fail. */
function failureOf(files: Record<string, string>): string {
  const result = check(tree({ ...clean, ...files }));
  expect(result.status).toBe(1);
  return result.output;
}

/** Trees that break one rule each: what is planted, and what the check must say about it. */
const PLANTED: { name: string; files: Record<string, string>; says: string[] }[] = [
  {
    name: "fails when a module imports another module's tables, naming the file and the import",
    files: {
      "apps/server/src/modules/workspaces/members.ts":
        'import type { UserRow } from "../users/schema.ts";\nexport type M = UserRow;\n',
    },
    says: ['apps/server/src/modules/workspaces/members.ts imports "../users/schema.ts"'],
  },
  {
    name: "lets only a module's schema.ts reference another schema.ts (foreign keys)",
    files: {
      "apps/server/src/modules/workspaces/nested/schema.ts": 'import { users } from "../../users/schema.ts";\n',
    },
    says: ["workspaces/nested/schema.ts"],
  },
  {
    name: "fails on a cycle between server modules",
    files: {
      "apps/server/src/modules/users/routes.ts": 'import { x } from "../workspaces/service.ts";\n',
    },
    says: [
      "import cycle between server modules users, workspaces",
      'apps/server/src/modules/users/routes.ts imports "../workspaces/service.ts"',
    ],
  },
  {
    name: "fails on a cycle between engine folders, but not on one made only by tests",
    files: { "packages/engine/src/audio/mix.ts": 'export { call } from "../session/call.ts";\n' },
    says: ["import cycle between engine folders audio, session"],
  },
  {
    name: "sees dynamic imports",
    files: {
      "packages/engine/src/audio/lazy.ts": 'export const load = () => import("../session/call.ts");\n',
    },
    says: ['packages/engine/src/audio/lazy.ts imports "../session/call.ts"'],
  },
  {
    name: "fails when one web feature imports another",
    files: {
      "apps/web/src/features/b/page.tsx": 'import { A } from "../a/page.tsx";\nexport const B = A;\n',
    },
    says: ['apps/web/src/features/b/page.tsx imports "../a/page.tsx"'],
  },
  {
    name: "fails when the foundation imports a module, naming the file and the import",
    files: {
      "apps/server/src/db/client.ts": 'import type { UserRow } from "../modules/users/service.ts";\n',
      "apps/server/src/context.ts": 'import type { Rooms } from "./modules/users/rooms.ts";\n',
    },
    says: [
      'apps/server/src/db/client.ts imports "../modules/users/service.ts": the foundation',
      'apps/server/src/context.ts imports "./modules/users/rooms.ts"',
    ],
  },
  {
    name: "fails on a cycle between two server files, type-only imports included",
    files: {
      "apps/server/src/lib/a.ts": 'import type { B } from "./b.ts";\nexport type A = B;\n',
      "apps/server/src/lib/b.ts": 'import type { A } from "./a.ts";\nexport type B = A;\n',
    },
    says: ["import cycle between server files apps/server/src/lib/a.ts, apps/server/src/lib/b.ts"],
  },
  {
    name: "fails on a cycle between contract files",
    files: {
      "packages/contract/src/catalog.ts": 'import type { D } from "./providers/types.ts";\nexport type C = D;\n',
      "packages/contract/src/providers/types.ts": 'export type { C as D } from "../catalog.ts";\n',
    },
    says: ["import cycle between contract files packages/contract/src/catalog.ts"],
  },
  {
    name: "fails when a server module or web feature is missing from ARCHITECTURE.md's vocabulary, or it names one that does not exist",
    files: {
      "apps/server/src/modules/invoices/service.ts": "export const invoices = 1;\n",
      "apps/web/src/features/reports/page.tsx": "export const Reports = 1;\n",
      "ARCHITECTURE.md": String(clean["ARCHITECTURE.md"]).replace("`audio`", "`codecs`"),
    },
    says: [
      "apps/server/src/modules/invoices is missing from ARCHITECTURE.md's vocabulary table",
      "apps/web/src/features/reports is missing from ARCHITECTURE.md's vocabulary table",
      "names engine folder `codecs`, which is not in packages/engine/src",
    ],
  },
  {
    name: "still counts a vendor's file that is imported by path",
    files: {
      "apps/server/src/modules/users/a.ts":
        'import { x } from "../../../../../packages/engine/src/providers/acme/stt.ts";\n',
      "apps/server/src/modules/users/b.ts": "// Acme Voice\n",
    },
    says: ["apps/server/src/modules/users/a.ts"],
  },
];

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("scripts/check-structure.mjs", () => {
  it.each(PLANTED)("$name", ({ files, says }) => {
    const output = failureOf(files);
    for (const text of says) expect(output).toContain(text);
  });

  it("passes a tree that keeps every boundary", () => {
    const result = check(tree(clean));
    expect(result.output).toContain("Structure check passed.");
    expect(result.status).toBe(0);
  });

  it("fails on a query of a workspace-owned table that skips scoped(), outside a cross-workspace file", () => {
    const output = failureOf({
      "apps/server/src/modules/notes/find.ts": [
        'import { notes } from "./schema.ts";',
        "export const byId = (db, id) => db.select().from(notes).where(eq(notes.id, id));",
        "export const remove = (db, id) => db.delete(notes).where(eq(notes.id, id));",
        "",
      ].join("\n"),
    });
    expect(output).toContain(
      "apps/server/src/modules/notes/find.ts:2 reads workspace-owned table notes without scoped(notes, tenant)",
    );
    expect(output).toContain("apps/server/src/modules/notes/find.ts:3 deletes from workspace-owned table notes");
    expect(output).not.toContain("service.ts");
    expect(output).not.toContain("sweep-across-workspaces.ts");
  });

  it("fails when two modules share an identical run of ten code lines, but not on shorter ones", () => {
    const body = Array.from({ length: 10 }, (_, i) => `  total += step(${i});`).join("\n");
    const shared = `export function sum(step) {\n  let total = 0;\n${body}\n  return total;\n}\n`;
    const short = Array.from({ length: 8 }, (_, i) => `export const v${i} = ${i};`).join("\n");
    const output = failureOf({
      "apps/server/src/modules/users/sum.ts": shared,
      "apps/server/src/modules/workspaces/sum.ts": `// a copy\n${shared}`,
      "apps/web/src/features/a/values.ts": short,
      "apps/web/src/features/b/values.ts": short,
    });
    expect(output).toContain(
      "apps/server/src/modules/workspaces/sum.ts:2 copies 10+ lines of apps/server/src/modules/users/sum.ts:1",
    );
    expect(output).not.toContain("features/b/values.ts");
  });

  it("fails when a vendor's id or label spreads over more than three production files", () => {
    const output = failureOf({
      "apps/server/src/modules/users/voices.ts": 'export const label = "ACME VOICE";\n',
      "apps/web/src/features/a/icon.tsx": "export const icons = { acme: 1 };\n",
    });
    expect(output).toContain('vendor "acme" (Acme Voice) is named in 5 production files');
    expect(output).toContain("apps/server/src/modules/users/voices.ts");
    expect(output).toContain("apps/web/src/i18n/locales/en.json");
    expect(output).not.toContain('vendor "acme-cloud"');
  });

  it("does not count model ids, URL paths, a longer vendor's own files or a built-in provider as mentions", () => {
    const result = check(
      tree({
        ...clean,
        "packages/contract/src/providers/acme-router.ts": `${descriptor("acme-router", "Router")}const models = [m("acme/large", "Acme Voice Large")];\n`,
        "packages/contract/src/providers/big-acme.ts": descriptor("big-acme", "Big Acme Voice"),
        "packages/engine/src/providers/big-acme/index.ts":
          'const url = "https://big.example/acme/v1"; // Big Acme Voice\n',
        "packages/engine/src/providers/other/index.ts": 'const url = "https://other.example/acme/v1";\n',
        "packages/contract/src/providers/builtin.ts":
          `${descriptor("builtin", "Built in")}const integrationKinds = [];\n`.replace(
            "const integrationKinds = [];",
            "export const x = { integrationKinds: [] };",
          ),
        "apps/server/src/modules/users/a.ts": "// builtin\n",
        "apps/server/src/modules/users/b.ts": "// builtin\n",
        "apps/server/src/modules/users/c.ts": "// builtin\n",
      }),
    );
    expect(result.output).not.toContain('vendor "acme"');
    expect(result.output).not.toContain('vendor "builtin"');
    expect(result.status).toBe(0);
  });
});
