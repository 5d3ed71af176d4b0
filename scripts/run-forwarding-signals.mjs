import { spawn } from "node:child_process";
import os from "node:os";

const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs a long-lived child (the server) in the foreground of this process. A stop signal sent to
 * this launcher (Ctrl-C, `kill`, a process manager) is passed on to the child instead of killing
 * the launcher alone — which would leave the server orphaned and still serving — and the
 * launcher exits with the child's own status once it has stopped.
 */
export function runForwardingSignals(command, args, options = {}) {
  const child = spawn(command, args, { ...options, stdio: "inherit" });
  for (const signal of forwarded) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    // A child ended by a signal is reported the way a shell does: 128 + the signal number.
    process.exit(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0));
  });
  return child;
}
