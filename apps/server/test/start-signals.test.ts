import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const scripts = path.resolve(import.meta.dirname, "../../../scripts");
const forwarder = pathToFileURL(path.join(scripts, "run-forwarding-signals.mjs")).href;

// Stands in for the server: prints its pid, stops cleanly on SIGTERM/SIGINT with a status of its own.
const fakeServer = `
process.on("SIGTERM", () => process.exit(3));
process.on("SIGINT", () => process.exit(4));
console.log(process.pid);
setInterval(() => {}, 1000);
`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

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
