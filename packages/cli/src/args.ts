import { parseArgs } from "node:util";
import { StartTestRunBody, TEST_SUITE_LIMITS } from "@parley/contract";
import { z } from "zod";

/** What `parley …` was asked to do, once its arguments made sense. */
export type Command =
  | { kind: "help"; topic: "main" | "test" }
  | { kind: "test"; options: TestOptions }
  | { kind: "usage-error"; message: string; topic: "main" | "test" };

export interface TestOptions {
  suiteId: string;
  /** The server's base URL without a trailing slash (the web app's address; the API is under /api/v1). */
  url: string;
  key: string;
  junitPath: string | null;
  repeat: number | undefined;
  caseIds: string[] | undefined;
  /** The assistant version to call; the one published when the run starts by default. */
  version: number | undefined;
  timeoutSeconds: number;
  quiet: boolean;
}

export const DEFAULT_TIMEOUT_SECONDS = 1800;

export const MAIN_USAGE = `Usage: parley <command> [options]

Commands:
  test     Run a test suite on a Parley server and wait for its verdict (parley test --help)

Options:
  -h, --help  Show this help
`;

export const TEST_USAGE = `Usage: parley test --suite <id> [options]

Runs a test suite on a Parley server, prints each case's outcome as it finishes and a summary,
and exits 0 when every case passed.

Options:
  --suite <id>         The test suite to run (its id, from the suite's page or the API)
  --url <url>          The Parley server's base URL, e.g. https://parley.example.com
                       (default: $PARLEY_URL)
  --key <key>          An API key with the "calls" and "read" scopes (default: $PARLEY_API_KEY)
  --junit <file>       Also write the results as JUnit XML to this file
  --repeat <n>         Call each case n times (1-${TEST_SUITE_LIMITS.maxRepeat}) instead of the suite's own setting
  --case <id>          Run only this case; repeat the flag for more (default: every case)
  --assistant-version <n>
                       Call this version of the suite's assistant (default: the published one)
  --timeout <seconds>  Give up (and cancel the run) after this long (default: ${DEFAULT_TIMEOUT_SECONDS})
  --quiet              Print only the summary, not each case as it finishes
  -h, --help           Show this help

Exit codes:
  0  the run passed
  1  a case failed, was flaky or errored, or the run was cancelled
  2  bad arguments, the key was refused, the suite was not found, the server could not be
     reached or did not answer as expected, or the timeout passed
`;

const TEST_FLAGS = {
  suite: { type: "string" },
  url: { type: "string" },
  key: { type: "string" },
  junit: { type: "string" },
  repeat: { type: "string" },
  case: { type: "string", multiple: true },
  "assistant-version": { type: "string" },
  timeout: { type: "string" },
  quiet: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Environment = Record<string, string | undefined>;

/** Reads `parley`'s arguments (without node and the script) and the environment's defaults. */
export function parseCommand(argv: readonly string[], env: Environment): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === "help" || first === "--help" || first === "-h") {
    return rest[0] === "test" ? { kind: "help", topic: "test" } : { kind: "help", topic: "main" };
  }
  if (first !== "test") {
    return { kind: "usage-error", message: `Unknown command "${first}".`, topic: "main" };
  }
  try {
    return parseTest(rest, env);
  } catch (error) {
    // node:util's parseArgs throws for an unknown flag or a flag without its value.
    return { kind: "usage-error", message: error instanceof Error ? error.message : String(error), topic: "test" };
  }
}

function parseTest(argv: readonly string[], env: Environment): Command {
  const { values, positionals } = parseArgs({ args: [...argv], options: TEST_FLAGS, allowPositionals: true });
  if (values.help) return { kind: "help", topic: "test" };
  const fail = (message: string): Command => ({ kind: "usage-error", message, topic: "test" });
  if (positionals.length > 0) return fail(`Unexpected argument "${positionals[0]}".`);

  const suiteId = values.suite?.trim();
  if (!suiteId) return fail("Name the suite to run: --suite <id>.");
  if (!z.uuid().safeParse(suiteId).success)
    return fail(`--suite must be a test suite's id (a UUID), not "${suiteId}".`);

  const url = parseUrl(values.url ?? env.PARLEY_URL);
  if (typeof url !== "string") return fail(url.error);
  const key = (values.key ?? env.PARLEY_API_KEY ?? "").trim();
  if (!key) return fail("Give an API key: --key <key> or PARLEY_API_KEY.");

  const repeat = values.repeat === undefined ? undefined : Number(values.repeat);
  const caseIds = values.case?.flatMap((v) => v.split(",")).map((v) => v.trim());
  const asked = values["assistant-version"];
  const version = asked === undefined ? undefined : Number(asked);
  // The server's own schema says what a run may ask for, so the limits are checked before any request.
  const body = StartTestRunBody.safeParse({ repeat, case_ids: caseIds, version, trigger: "cli" });
  if (!body.success) return fail(describeBodyIssue(body.error.issues[0]));

  const timeoutSeconds = values.timeout === undefined ? DEFAULT_TIMEOUT_SECONDS : Number(values.timeout);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    return fail(`--timeout must be a number of seconds above 0, not "${values.timeout}".`);
  }
  return {
    kind: "test",
    options: {
      suiteId,
      url,
      key,
      junitPath: values.junit ?? null,
      repeat: body.data.repeat,
      caseIds: body.data.case_ids,
      version: body.data.version,
      timeoutSeconds,
      quiet: values.quiet ?? false,
    },
  };
}

function parseUrl(raw: string | undefined): string | { error: string } {
  const value = raw?.trim();
  if (!value) return { error: "Give the server's URL: --url <url> or PARLEY_URL." };
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { error: `--url must be an http(s) URL such as https://parley.example.com, not "${value}".` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { error: `--url must be an http(s) URL, not "${value}".` };
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
}

function describeBodyIssue(issue: z.core.$ZodIssue | undefined): string {
  const field = issue?.path[0];
  if (field === "repeat") return `--repeat must be a whole number from 1 to ${TEST_SUITE_LIMITS.maxRepeat}.`;
  if (field === "case_ids")
    return `--case must be a test case's id (a UUID); give at most ${TEST_SUITE_LIMITS.casesPerSuite}.`;
  if (field === "version") return "--assistant-version must be a version's number: a whole number from 1.";
  return issue?.message ?? "Invalid arguments.";
}
