#!/usr/bin/env node
// `npm run typecheck`: every workspace's `typecheck` script (tsc -p on its own tsconfig), run side
// by side, as many at once as the machine has cores. Each tsc is one thread, and the three largest
// (the server, the web app and the benchmarks, which import the server's test harness) take most of
// the time: one after another they left a second core idle for the whole step. Longest first, so
// the small packages fill in beside them. Exits 1 if any workspace fails, printing its output whole
// (not interleaved with the others').
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

/** Roughly longest first (files checked, measured with --extendedDiagnostics); unknown ones last. */
const ORDER = ["bench", "apps/server", "apps/web", "e2e", "packages/engine", "packages/widget", "packages/contract"];
/** Folders that are not workspaces (no package.json of their own) but have a tsconfig.json: tsc -p each. */
const PROJECTS = ["deploy"];

function workspaces() {
  const { workspaces: patterns } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const dirs = [];
  for (const pattern of patterns) {
    if (!pattern.endsWith("/*")) {
      dirs.push(pattern);
      continue;
    }
    const parent = pattern.slice(0, -2);
    for (const name of packagesIn(path.join(root, parent))) dirs.push(`${parent}/${name}`);
  }
  return dirs
    .filter((dir) => typecheckScript(dir) !== undefined)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The folders of `dir` that hold a package.json (what npm takes as workspaces). */
function packagesIn(dir) {
  return readdirSync(dir).filter((name) => {
    try {
      return statSync(path.join(dir, name, "package.json")).isFile();
    } catch {
      return false;
    }
  });
}

function typecheckScript(dir) {
  const pkg = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
  return pkg.scripts?.typecheck;
}

function rank(dir) {
  const i = ORDER.indexOf(dir);
  return i === -1 ? ORDER.length : i;
}

/** Runs one workspace's typecheck, collecting its output; resolves with what happened. */
function check(dir) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = PROJECTS.includes(dir)
      ? spawn("npx", ["tsc", "-p", path.join(dir, "tsconfig.json")], { cwd: root })
      : spawn("npm", ["run", "--silent", "typecheck"], { cwd: path.join(root, dir) });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    child.on("close", (code) => resolve({ dir, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const queue = [...workspaces(), ...PROJECTS];
const lanes = Math.max(1, Math.min(availableParallelism(), queue.length));
const failures = [];
await Promise.all(
  Array.from({ length: lanes }, async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      const result = await check(dir);
      console.log(`${result.ok ? "✔" : "✘"} typecheck ${dir} (${result.seconds.toFixed(1)}s)`);
      if (!result.ok) {
        failures.push(dir);
        process.stdout.write(result.output);
      }
    }
  }),
);
if (failures.length > 0) {
  console.log(`typecheck failed in: ${failures.join(", ")}`);
  process.exit(1);
}
