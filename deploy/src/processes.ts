import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

/**
 * Child processes of a local cluster. Each runs in its own process group (Kamailio forks workers;
 * a node may start helpers), so a kill reaches the whole group; and whatever is still running when
 * this process exits — a test that failed half-way, an uncaught error — is killed with it.
 */

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) killGroup(child, "SIGKILL");
  });
}

export interface Managed {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr (also appended to its log file). */
  output(): string;
  exited(): boolean;
  /** Resolves with how it ended (at once if it already has). */
  exit: Promise<{ code: number | null; signal: string | null }>;
}

export function startManaged(
  command: string,
  args: string[],
  options: SpawnOptions & { logFile: string; onOutput?: (chunk: string) => void },
): Managed {
  installExitHook();
  const { logFile, onOutput, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  const log = createWriteStream(logFile, { flags: "a" });
  let output = "";
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    if (!log.writableEnded) log.write(text);
    onOutput?.(text);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let done = false;
  const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on("exit", (code, signal) => {
      done = true;
      running.delete(child);
      resolve({ code, signal });
    });
    child.on("error", (error) => {
      output += `\n${error.message}\n`;
      done = true;
      running.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  // "close", not "exit": output still in the pipes after the process exited (a kill -9) is kept.
  child.once("close", () => log.end());
  return { child, output: () => output, exited: () => done, exit };
}

/** Sends `signal` to the process alone (a node's drain is its own business). */
export function signal(managed: Managed, sig: NodeJS.Signals): void {
  if (!managed.exited()) managed.child.kill(sig);
}

/**
 * Stops a process: `signal` to it, then after `graceMs` the same again (Parley closes at once on a
 * second stop signal), then SIGKILL to its whole group after as long again.
 */
export async function stopManaged(managed: Managed, sig: NodeJS.Signals, graceMs: number) {
  if (managed.exited()) return managed.exit;
  signal(managed, sig);
  if (await within(managed.exit, graceMs)) return managed.exit;
  signal(managed, sig);
  if (await within(managed.exit, graceMs)) return managed.exit;
  killGroup(managed.child, "SIGKILL");
  return managed.exit;
}

/** Kills the process's whole group at once (a crash: nothing gets to finish). */
export async function killManaged(managed: Managed) {
  killGroup(managed.child, "SIGKILL");
  return managed.exit;
}

async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const result = await Promise.race([promise.then(() => true as const), timeout]);
  clearTimeout(timer);
  return result;
}
