#!/usr/bin/env node
// `npm start`: builds whatever is missing or stale (web app, server bundle), then runs the
// server on the embedded database. Configuration comes from the environment (see README).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { runForwardingSignals } from "./run-forwarding-signals.mjs";

const root = path.resolve(import.meta.dirname, "..");

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function isStale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((dir) => newestMtime(path.join(root, dir)) > built);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(path.join(root, "node_modules"))) run("npm", ["install"]);
if (isStale(path.join(root, "apps/web/dist/index.html"), ["apps/web", "packages/contract"])) {
  console.log("Building the web app…");
  run("npm", ["run", "build", "-w", "@parley/web"]);
}
if (isStale(path.join(root, "apps/server/dist/main.js"), ["apps/server/src", "packages"])) {
  console.log("Building the server…");
  run("npm", ["run", "build", "-w", "@parley/server"]);
}
runForwardingSignals(process.execPath, ["--enable-source-maps", "apps/server/dist/main.js"], {
  cwd: root,
  env: { NODE_ENV: "production", ...process.env },
});
