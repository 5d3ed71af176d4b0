import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestRun } from "@parley/contract";
import { ApiFailure, createApiClient, DEFAULT_RETRY, type RetryPolicy } from "./api-client.ts";
import { MAIN_USAGE, parseCommand, TEST_USAGE, type TestOptions } from "./args.ts";
import { junitXml } from "./junit.ts";
import { createProgress, startedLine, summaryLines } from "./report.ts";
import { watchRun } from "./watch-run.ts";

/** The exit codes a CI reads: the run passed, it did not, or the CLI could not tell. */
export const EXIT = { passed: 0, failed: 1, unusable: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** Where a relative --junit path starts. */
  cwd: string;
  /** Aborted when the user interrupts (Ctrl-C): the run is cancelled on the server. */
  signal: AbortSignal;
}

export interface CliTiming {
  pollMs: number;
  retry: RetryPolicy;
}

export const DEFAULT_TIMING: CliTiming = { pollMs: 2000, retry: DEFAULT_RETRY };

/** `parley …` with its arguments (without node and the script); resolves with the exit code. */
export async function main(argv: readonly string[], io: CliIo, timing: CliTiming = DEFAULT_TIMING): Promise<ExitCode> {
  const command = parseCommand(argv, io.env);
  switch (command.kind) {
    case "help":
      io.out((command.topic === "test" ? TEST_USAGE : MAIN_USAGE).trimEnd());
      return EXIT.passed;
    case "usage-error":
      io.err(`parley: ${command.message}\n`);
      io.err((command.topic === "test" ? TEST_USAGE : MAIN_USAGE).trimEnd());
      return EXIT.unusable;
    case "test":
      return runTest(command.options, io, timing);
  }
}

async function runTest(options: TestOptions, io: CliIo, timing: CliTiming): Promise<ExitCode> {
  const client = createApiClient({ url: options.url, key: options.key, retry: timing.retry, signal: io.signal });
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  let run: TestRun;
  try {
    run = await client.startRun(options.suiteId, {
      trigger: "cli",
      ...(options.repeat === undefined ? {} : { repeat: options.repeat }),
      ...(options.caseIds === undefined ? {} : { case_ids: options.caseIds }),
      ...(options.version === undefined ? {} : { version: options.version }),
    });
  } catch (error) {
    if (io.signal.aborted) {
      io.err("parley: interrupted before the run started.");
      return EXIT.failed;
    }
    return failed(io, error);
  }
  if (!options.quiet) io.out(startedLine(run));

  const progress = createProgress();
  let watched: Awaited<ReturnType<typeof watchRun>>;
  try {
    watched = await watchRun(client, run, {
      suiteId: options.suiteId,
      pollMs: timing.pollMs,
      deadline,
      signal: io.signal,
      onUpdate: (next) => {
        const lines = progress(next);
        if (!options.quiet) for (const line of lines) io.out(line);
      },
    });
  } catch (error) {
    io.err(`parley: stopped watching run ${run.id}; it may still be running on the server.`);
    return failed(io, error);
  }

  run = watched.run;
  if (watched.end !== "finished") {
    io.err(
      watched.end === "timeout"
        ? `parley: the run did not finish within ${options.timeoutSeconds} s; cancelling it.`
        : "parley: interrupted; cancelling the run.",
    );
    run = (await cancelQuietly(options, run, io)) ?? run;
  }
  for (const line of summaryLines(run, options.url)) io.out(line);

  if (options.junitPath !== null) {
    const written = await writeJunit(path.resolve(io.cwd, options.junitPath), run, options.url, io);
    if (!written) return EXIT.unusable;
  }
  if (watched.end === "timeout") return EXIT.unusable;
  return passed(run) ? EXIT.passed : EXIT.failed;
}

/** Passed means every case passed: a flaky, failed or errored case, or a cancelled run, fails the build. */
function passed(run: TestRun): boolean {
  const { failed, flaky, error } = run.totals;
  return run.status === "passed" && failed + flaky + error === 0;
}

/** Cancels a run the CLI stops waiting for, so its calls stop costing; the run's newest state, if the server answered. */
async function cancelQuietly(options: TestOptions, run: TestRun, io: CliIo): Promise<TestRun | undefined> {
  // A fresh client: the interrupted one's signal is already aborted.
  const client = createApiClient({
    url: options.url,
    key: options.key,
    retry: { attempts: 2, firstDelayMs: 500, maxDelayMs: 1000 },
  });
  try {
    return await client.cancelRun(options.suiteId, run.id);
  } catch (error) {
    io.err(`parley: could not cancel run ${run.id}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

async function writeJunit(file: string, run: TestRun, url: string, io: CliIo): Promise<boolean> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, junitXml(run, url), "utf8");
    return true;
  } catch (error) {
    io.err(
      `parley: could not write the JUnit report to ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return false;
  }
}

function failed(io: CliIo, error: unknown): ExitCode {
  if (error instanceof ApiFailure) {
    io.err(`parley: ${error.message}`);
    return EXIT.unusable;
  }
  throw error;
}
