import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isAlive, npmStart } from "./support/npm-start.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const scripts = path.join(root, "scripts");
const forwarder = pathToFileURL(path.join(scripts, "run-forwarding-signals.mjs")).href;

// Stands in for the server: prints its pid, stops cleanly on SIGTERM/SIGINT with a status of its own.
const fakeServer = `
process.on("SIGTERM", () => process.exit(3));
process.on("SIGINT", () => process.exit(4));
console.log(process.pid);
setInterval(() => {}, 1000);
`;

async function startLauncher(): Promise<{ launcher: ChildProcess; serverPid: number }> {
  const code = `import { runForwardingSignals } from ${JSON.stringify(forwarder)};
runForwardingSignals(process.execPath, ["-e", ${JSON.stringify(fakeServer)}]);`;
  const launcher = spawn(process.execPath, ["--input-type=module", "-e", code], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (!launcher.stdout) throw new Error("launcher has no stdout");
  const [chunk] = await once(launcher.stdout, "data");
  return { launcher, serverPid: Number(String(chunk).trim()) };
}

describe("npm start's launcher (issue 10 item 6)", () => {
  it("runs the server through the signal-forwarding launcher", () => {
    expect(readFileSync(path.join(scripts, "start.mjs"), "utf8")).toContain("runForwardingSignals(");
  });

  it.each([
    ["SIGTERM", 3],
    ["SIGINT", 4],
  ] as const)("passes %s to the server and exits with the server's status", async (signal, status) => {
    const { launcher, serverPid } = await startLauncher();
    expect(isAlive(serverPid)).toBe(true);
    launcher.kill(signal);
    const [code] = await once(launcher, "exit");
    expect(code).toBe(status);
    // The server stopped too rather than living on as an orphan.
    await expect.poll(() => isAlive(serverPid), { timeout: 5000 }).toBe(false);
  });
});

/** `npm start` (support/npm-start.ts) in a copy whose scripts/start.mjs is the stand-in server. */
async function startThroughNpm(dir: string): Promise<{ npm: ChildProcess; serverPid: number }> {
  mkdirSync(path.join(dir, "scripts"), { recursive: true });
  writeFileSync(path.join(dir, "scripts/start.mjs"), fakeServer);
  const npm = npmStart(dir);
  if (!npm.stdout) throw new Error("npm has no stdout");
  let printed = "";
  for await (const chunk of npm.stdout) {
    printed += String(chunk);
    const pid = printed.match(/^(\d+)$/m);
    if (pid) return { npm, serverPid: Number(pid[1]) };
  }
  throw new Error(`npm start ended without starting the server: ${printed}`);
}

describe("npm start (issue 25 item 10)", () => {
  it("stops the server when npm itself is sent SIGTERM, instead of orphaning it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parley-npm-start-"));
    let serverPid = 0;
    try {
      const started = await startThroughNpm(dir);
      const npm = started.npm;
      serverPid = started.serverPid;
      expect(isAlive(serverPid)).toBe(true);
      const exited = once(npm, "exit");
      npm.kill("SIGTERM");
      await exited;
      await expect.poll(() => isAlive(serverPid), { timeout: 10_000 }).toBe(false);
    } finally {
      if (serverPid && isAlive(serverPid)) process.kill(serverPid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
