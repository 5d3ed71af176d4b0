import { FINISHED_TEST_RUN_STATUSES, type TestRun } from "@parley/contract";
import { type ApiClient, sleep } from "./api-client.ts";

/** How a watch ended: the run finished, the timeout passed, or the user interrupted (Ctrl-C). */
export type WatchEnd = "finished" | "timeout" | "interrupted";

export interface WatchOptions {
  suiteId: string;
  /** Time between reads of the run (the client backs off further on its own when the server is busy). */
  pollMs: number;
  /** When to stop waiting, as Date.now() counts. */
  deadline: number;
  signal: AbortSignal;
  /** Each newer state of the run, the first one included. */
  onUpdate(run: TestRun): void;
}

export function isFinished(run: TestRun): boolean {
  return (FINISHED_TEST_RUN_STATUSES as readonly string[]).includes(run.status);
}

/** Reads the run until it finishes, the deadline passes or the signal aborts; returns its last state. */
export async function watchRun(
  client: ApiClient,
  first: TestRun,
  options: WatchOptions,
): Promise<{ run: TestRun; end: WatchEnd }> {
  let run = first;
  options.onUpdate(run);
  while (!isFinished(run)) {
    const left = options.deadline - Date.now();
    if (left <= 0) return { run, end: "timeout" };
    try {
      await sleep(Math.min(options.pollMs, left), options.signal);
      run = await client.getRun(options.suiteId, run.id);
    } catch (error) {
      if (options.signal.aborted) return { run, end: "interrupted" };
      throw error;
    }
    options.onUpdate(run);
  }
  return { run, end: "finished" };
}
