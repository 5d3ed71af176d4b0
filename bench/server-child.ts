import type { ChildProcess } from "node:child_process";

/**
 * Keeps the last 20 KB of a spawned Parley's output and waits until `healthUrl` answers 200 (up to
 * 170 s: loading the server through tsx on a busy machine takes long). Throws with that output when
 * the server exits first or never answers. The benches start their servers this one way.
 */
export async function serverUp(child: ChildProcess, healthUrl: string): Promise<{ output(): string }> {
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const deadline = Date.now() + 170_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
    const up = await fetch(healthUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { output: () => output };
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
