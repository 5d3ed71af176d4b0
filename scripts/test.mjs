#!/usr/bin/env node
// `npm test`: every check the project has, in order — lint and format, the structure check
// (module boundaries, scripts/check-structure.mjs), typecheck (workspaces side by side,
// scripts/typecheck.mjs), unit tests,
// the API suite on PGlite and again on PostgreSQL, the production build, and the browser suite.
// Ends with one summary line "N passed, N failed".
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const reports = mkdtempSync(path.join(tmpdir(), "parley-test-reports-"));
const only = process.argv.slice(2); // e.g. `npm test -- server e2e`
let passed = 0;
let failed = 0;
const failures = [];
/** Failed tests, named with their first error line, repeated at the end where a log's tail shows them. */
const failedTests = [];

function step(name, command, args, options = {}) {
  if (only.length > 0 && !only.some((o) => name.startsWith(o))) return;
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: "inherit",
    ...options,
    env: { ...process.env, ...options.env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    console.log(`✔ ${name} (${seconds}s)`);
  } else {
    console.log(`✘ ${name} failed (${seconds}s)`);
    failures.push(name);
  }
  return result.status === 0;
}

/**
 * The head of an error, enough to act on from a log's tail: an assertion's message can be a JSON
 * document whose first line is only "[".
 */
function firstLines(message) {
  return String(message ?? "")
    .split("\n")
    .filter((line) => !/^\s+at /.test(line))
    .slice(0, 30)
    .join("\n    ")
    .slice(0, 2_500);
}

/** Runs vitest in a workspace and counts its tests from the JSON report. */
function vitest(name, workspaceDir, env = {}) {
  const report = path.join(reports, `${name.replaceAll(/\W+/g, "-")}.json`);
  const ok = step(
    name,
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    {
      cwd: path.join(root, workspaceDir),
      env,
    },
  );
  if (ok === undefined) return;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8"));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    for (const file of json.testResults ?? []) {
      const where = path.relative(root, file.name);
      for (const test of file.assertionResults ?? []) {
        if (test.status !== "failed") continue;
        const reason = firstLines(test.failureMessages?.[0]);
        failedTests.push(`${name} · ${where} · ${test.fullName}\n    ${reason}`);
      }
      // A file that failed outside any test (an import error, a failing hook) has no failed test.
      if (file.status === "failed" && !(file.assertionResults ?? []).some((t) => t.status === "failed")) {
        failedTests.push(`${name} · ${where}\n    ${firstLines(file.message)}`);
      }
    }
  } else if (!ok) {
    failed += 1;
  }
}

function postgresReachable() {
  const probe = spawnSync("node", [
    "-e",
    "const s=require('net').connect(5432,'127.0.0.1');s.on('connect',()=>process.exit(0));s.on('error',()=>process.exit(1));",
  ]);
  return probe.status === 0;
}

step("lint", "npx", ["biome", "check", "."]);
step("structure", "node", ["scripts/check-structure.mjs"]);
step("typecheck", "node", ["scripts/typecheck.mjs"]);
vitest("unit: contract", "packages/contract");
vitest("unit: engine", "packages/engine");
vitest("unit: sip", "packages/sip");
vitest("unit: browser-audio", "packages/browser-audio");
vitest("unit: widget", "packages/widget");
vitest("unit: cli", "packages/cli");
vitest("unit: web", "apps/web");
// Files that measure how the server answers while it works run after the rest, alone
// (apps/server/vitest.config.ts, RUN_ALONE).
const SPLIT = { PARLEY_TEST_SPLIT: "1" };
const ALONE = { PARLEY_TEST_ALONE: "1" };
vitest("server (PGlite)", "apps/server", SPLIT);
vitest("server alone (PGlite)", "apps/server", ALONE);
if (postgresReachable()) {
  vitest("server (PostgreSQL)", "apps/server", { ...SPLIT, PARLEY_TEST_DB: "postgres" });
  vitest("server alone (PostgreSQL)", "apps/server", { ...ALONE, PARLEY_TEST_DB: "postgres" });
  // Several nodes behind HAProxy and Kamailio (deploy/): PostgreSQL only, one file at a time.
  vitest("cluster (HAProxy, Kamailio)", "apps/server", { PARLEY_TEST_CLUSTER: "1", PARLEY_TEST_DB: "postgres" });
} else if (process.env.CI) {
  console.log("✘ PostgreSQL is not reachable on 127.0.0.1:5432; the API suite must also run there.");
  failures.push("server (PostgreSQL)");
  failed += 1;
} else {
  console.log("\n(PostgreSQL not reachable on 127.0.0.1:5432: skipping the second API run)");
}
if (step("build", "npm", ["run", "build"]) !== false) vitest("e2e (Chromium)", "e2e");

if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.map((t) => `  ✘ ${t}`).join("\n")}`);
if (failures.length > 0) console.log(`\nFailed steps: ${failures.join(", ")}`);
if (failures.length > 0 && failed === 0) failed = failures.length;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failures.length > 0 ? 1 : 0);
