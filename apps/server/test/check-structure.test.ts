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
  "packages/engine/src/testing/acme-server.ts": "// acme\n",
  "apps/server/src/modules/users/acme.test.ts": "// acme\n",
  // "acme" inside "acme-cloud" is another vendor's name, not this one's.
  "apps/server/src/modules/users/clouds.ts": "// acme-cloud acme_key\n",
};

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("scripts/check-structure.mjs", () => {
  it("passes a tree that keeps every boundary", () => {
    const result = check(tree(clean));
    expect(result.output).toContain("Structure check passed.");
    expect(result.status).toBe(0);
  });

  it("fails when a module imports another module's tables, naming the file and the import", () => {
    const result = check(
      tree({
        ...clean,
        "apps/server/src/modules/workspaces/members.ts":
          'import type { UserRow } from "../users/schema.ts";\nexport type M = UserRow;\n',
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain('apps/server/src/modules/workspaces/members.ts imports "../users/schema.ts"');
  });

  it("lets only a module's schema.ts reference another schema.ts (foreign keys)", () => {
    const result = check(
      tree({
        ...clean,
        "apps/server/src/modules/workspaces/nested/schema.ts": 'import { users } from "../../users/schema.ts";\n',
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain("workspaces/nested/schema.ts");
  });

  it("fails on a cycle between server modules", () => {
    const result = check(
      tree({ ...clean, "apps/server/src/modules/users/routes.ts": 'import { x } from "../workspaces/service.ts";\n' }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain("import cycle between server modules users, workspaces");
    expect(result.output).toContain('apps/server/src/modules/users/routes.ts imports "../workspaces/service.ts"');
  });

  it("fails on a cycle between engine folders, but not on one made only by tests", () => {
    const result = check(
      tree({ ...clean, "packages/engine/src/audio/mix.ts": 'export { call } from "../session/call.ts";\n' }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain("import cycle between engine folders audio, session");
  });

  it("sees dynamic imports", () => {
    const result = check(
      tree({
        ...clean,
        "packages/engine/src/audio/lazy.ts": 'export const load = () => import("../session/call.ts");\n',
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain('packages/engine/src/audio/lazy.ts imports "../session/call.ts"');
  });

  it("fails when one web feature imports another", () => {
    const result = check(
      tree({
        ...clean,
        "apps/web/src/features/b/page.tsx": 'import { A } from "../a/page.tsx";\nexport const B = A;\n',
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain('apps/web/src/features/b/page.tsx imports "../a/page.tsx"');
  });

  it("fails when a vendor's id or label spreads over more than three production files", () => {
    const result = check(
      tree({
        ...clean,
        "apps/server/src/modules/users/voices.ts": 'export const label = "ACME VOICE";\n',
        "apps/web/src/features/a/icon.tsx": "export const icons = { acme: 1 };\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain('vendor "acme" (Acme Voice) is named in 5 production files');
    expect(result.output).toContain("apps/server/src/modules/users/voices.ts");
    expect(result.output).toContain("apps/web/src/i18n/locales/en.json");
    expect(result.output).not.toContain('vendor "acme-cloud"');
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

  it("still counts a vendor's file that is imported by path", () => {
    const result = check(
      tree({
        ...clean,
        "apps/server/src/modules/users/a.ts":
          'import { x } from "../../../../../packages/engine/src/providers/acme/stt.ts";\n',
        "apps/server/src/modules/users/b.ts": "// Acme Voice\n",
      }),
    );
    expect(result.status).toBe(1);
    expect(result.output).toContain("apps/server/src/modules/users/a.ts");
  });
});
