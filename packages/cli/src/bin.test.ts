import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SUITE_ID, sampleRun } from "../testing/sample-runs.ts";
import { type StubApi, startStubApi } from "../testing/stub-api.ts";

const BIN = path.resolve(import.meta.dirname, "../bin/parley.mjs");

/** `node …/bin/parley.mjs …` as CI runs it, from a directory outside the repository. */
async function parley(args: string[], env: Record<string, string> = {}) {
  const cwd = mkdtempSync(path.join(tmpdir(), "parley-bin-"));
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  const [code] = (await once(child, "close")) as [number | null];
  return { code, out, err, cwd };
}

let stub: StubApi | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe("bin/parley.mjs", () => {
  it("prints the usage from any directory", async () => {
    const main = await parley(["--help"]);
    expect(main.code).toBe(0);
    expect(main.out).toContain("Usage: parley <command> [options]");
    const test = await parley(["test", "--help"]);
    expect(test.code).toBe(0);
    expect(test.out).toContain("--junit <file>");
  });

  it("exits 2 on a usage error", async () => {
    const { code, err } = await parley(["test"]);
    expect(code).toBe(2);
    expect(err).toContain("Name the suite to run");
  });

  it("exits 1 on a failed run and writes the JUnit report relative to where it runs", async () => {
    const run = sampleRun([{ name: "Refund flow", attempts: ["failed"] }]);
    stub = await startStubApi(() => ({ status: 201, body: run }));
    const env = { PARLEY_URL: stub.url, PARLEY_API_KEY: "pk_live_bin" };
    const { code, out, cwd } = await parley(["test", "--suite", SUITE_ID, "--junit", "out/junit.xml"], env);
    expect(code).toBe(1);
    expect(out).toContain("✘ Refund flow — Rubric: No.");
    expect(existsSync(path.join(cwd, "out/junit.xml"))).toBe(true);
  });
});
