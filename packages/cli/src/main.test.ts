import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestRun } from "@parley/contract";
import { afterEach, describe, expect, it } from "vitest";
import { childrenNamed, parseXml, textOf } from "../testing/parse-xml.ts";
import { SUITE_ID, sampleRun } from "../testing/sample-runs.ts";
import { closedPort, type StubAnswer, type StubApi, type StubRequest, startStubApi } from "../testing/stub-api.ts";
import { type CliTiming, main } from "./main.ts";

/** Polls and retries in milliseconds, so a run of several states takes no real time. */
const FAST: CliTiming = { pollMs: 20, retry: { attempts: 4, firstDelayMs: 10, maxDelayMs: 50 } };
const KEY = "pk_live_testkey";
const BOOKS = "a0000000-0000-4000-8000-00000000000a";
const REFUND = "b0000000-0000-4000-8000-00000000000b";
const RUN_ID = "c0000000-0000-4000-8000-00000000000c";

let stub: StubApi | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** The run as it goes: queued, one case finished, both finished (the refund case failing on its rubric). */
function failingRunStates(): TestRun[] {
  const refundFailure = {
    type: "rubric" as const,
    label: "Rubric: offers a refund",
    reason: "The assistant never offered one.",
  };
  return [
    sampleRun(
      [
        { name: "Books a table", id: BOOKS, attempts: ["pending"] },
        { name: "Refund flow", id: REFUND, attempts: ["pending"] },
      ],
      { id: RUN_ID, status: "queued" },
    ),
    sampleRun(
      [
        { name: "Books a table", id: BOOKS, attempts: ["passed"] },
        { name: "Refund flow", id: REFUND, attempts: ["running"] },
      ],
      { id: RUN_ID },
    ),
    sampleRun(
      [
        { name: "Books a table", id: BOOKS, attempts: ["passed"] },
        { name: "Refund flow", id: REFUND, attempts: ["failed"], failures: [refundFailure] },
      ],
      {
        id: RUN_ID,
        comparison: {
          previous_run_id: "d0000000-0000-4000-8000-00000000000d",
          newly_failing: [{ case_id: REFUND, case_name: "Refund flow" }],
          newly_passing: [],
          latency_p95_delta_ms: 120,
          cost_per_call_delta: -0.001,
        },
      },
    ),
  ];
}

/** A server that starts the run and then answers each read with the next state (the last one repeated). */
function runRoutes(states: TestRun[], overrides: (req: StubRequest) => StubAnswer | undefined = () => undefined) {
  let reads = 0;
  return (req: StubRequest): StubAnswer => {
    const override = overrides(req);
    if (override) return override;
    if (req.method === "POST" && req.path.endsWith("/cancel")) {
      const last = states.at(-1) as TestRun;
      return { status: 200, body: { ...last, status: "cancelled" } };
    }
    if (req.method === "POST") return { status: 201, body: states[0] };
    reads += 1;
    return { status: 200, body: states[Math.min(reads, states.length - 1)] };
  };
}

async function runCli(argv: string[], options: { signal?: AbortSignal; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env: options.env ?? {},
      cwd: mkdtempSync(path.join(tmpdir(), "parley-cli-")),
      signal: options.signal ?? new AbortController().signal,
    },
    FAST,
  );
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const testArgs = (url: string, ...more: string[]) => ["test", "--suite", SUITE_ID, "--url", url, "--key", KEY, ...more];

describe("parley test against a server", () => {
  it("follows a failing run from queued to failed, prints each case once, writes JUnit and exits 1", async () => {
    stub = await startStubApi(runRoutes(failingRunStates()));
    const report = path.join(mkdtempSync(path.join(tmpdir(), "parley-junit-")), "reports", "parley.xml");
    const { code, out } = await runCli(testArgs(stub.url, "--junit", report));

    expect(code).toBe(1);
    expect(stub.requests[0]).toEqual({
      method: "POST",
      path: `/api/v1/test-suites/${SUITE_ID}/runs`,
      authorization: `Bearer ${KEY}`,
      body: { trigger: "cli" },
    });
    expect(stub.requests.slice(1).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /api/v1/test-suites/${SUITE_ID}/runs/${RUN_ID}`,
      `GET /api/v1/test-suites/${SUITE_ID}/runs/${RUN_ID}`,
    ]);
    expect(out.split("\n").filter((line) => line.includes("Books a table"))).toEqual(["✔ Books a table (1/1)"]);
    expect(out).toContain("✘ Refund flow — Rubric: offers a refund: The assistant never offered one.");
    expect(out).toContain("✘ Run failed: 2 cases — 1 passed, 1 failed, 0 flaky, 0 errors");
    expect(out).toContain("p95 latency 840 ms · cost $0.0123");
    expect(out).toContain("newly failing: Refund flow; newly passing: none");
    expect(out).toContain("p95 latency +120 ms · cost per call -$0.0010");
    expect(out).toContain(
      `Details: ${stub.url}/assistants/11111111-2222-4333-8444-555555555555/tests/${SUITE_ID}/runs/${RUN_ID}`,
    );

    const suite = childrenNamed(parseXml(readFileSync(report, "utf8")), "testsuite")[0];
    const failed = childrenNamed(suite ?? parseXml("<x/>"), "testcase").find(
      (c) => c.attributes.name === "Refund flow",
    );
    const failure = failed && childrenNamed(failed, "failure")[0];
    expect(failure?.attributes.message).toBe("Rubric: offers a refund");
    expect(failure && textOf(failure)).toContain("The assistant never offered one.");
  });

  it("exits 0 when the run passes, asking for the repeat, cases and assistant version given", async () => {
    const passed = sampleRun([{ name: "Books a table", id: BOOKS, attempts: ["passed", "passed"] }], { id: RUN_ID });
    stub = await startStubApi(runRoutes([{ ...passed, status: "running" }, passed]));
    const { code, out } = await runCli(
      testArgs(stub.url, "--repeat", "2", "--case", BOOKS, "--assistant-version", "3"),
    );
    expect(code).toBe(0);
    expect(stub.requests[0]?.body).toEqual({ trigger: "cli", repeat: 2, case_ids: [BOOKS], version: 3 });
    expect(out).toContain(`Running "Bookings" (run ${RUN_ID}) on assistant version 3: 1 case, each 2 times, 2 calls`);
    expect(out).toContain("✔ Books a table (2/2)");
    expect(out).toContain("✔ Run passed: 1 case — 1 passed, 0 failed, 0 flaky, 0 errors");
  });

  it("reads the URL and key from the environment", async () => {
    const passed = sampleRun([{ name: "Books a table", attempts: ["passed"] }]);
    stub = await startStubApi(runRoutes([passed]));
    const { code } = await runCli(["test", "--suite", SUITE_ID], {
      env: { PARLEY_URL: stub.url, PARLEY_API_KEY: KEY },
    });
    expect(code).toBe(0);
    expect(stub.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
  });

  it.each([
    ["flaky", [{ name: "Books a table", attempts: ["passed", "failed"] }], "⚠ Books a table (1/2) flaky — Rubric: No."],
    [
      "error",
      [{ name: "Books a table", attempts: ["error"], error: "The judge could not answer" }],
      "error: The judge",
    ],
    ["cancelled", [{ name: "Books a table", attempts: ["cancelled"] }], "– Books a table — cancelled"],
  ] as const)("exits 1 on a %s run", async (_, cases, line) => {
    const run = sampleRun(cases.map((c) => ({ ...c, attempts: [...c.attempts] })));
    stub = await startStubApi(runRoutes([run]));
    const { code, out } = await runCli(testArgs(stub.url));
    expect(code).toBe(1);
    expect(out).toContain(line);
  });

  it("prints only the summary with --quiet", async () => {
    stub = await startStubApi(runRoutes(failingRunStates()));
    const { code, out } = await runCli(testArgs(stub.url, "--quiet"));
    expect(code).toBe(1);
    expect(out).not.toContain("Refund flow —");
    expect(out).toContain("✘ Run failed");
  });
});

describe("parley test when it cannot tell", () => {
  it.each([
    [401, "Invalid, expired or revoked API key.", "The server refused the API key (401): Invalid, expired"],
    [
      403,
      'This API key lacks the "calls" scope.',
      'The server refused the API key (403): This API key lacks the "calls"',
    ],
    [404, "Test suite not found", "Test suite not found (404 for POST"],
    [422, "This suite has no test cases to run.", "(422): This suite has no test cases to run."],
  ])("exits 2 on a %i, printing the server's message", async (status, detail, message) => {
    stub = await startStubApi(() => ({ status, body: { detail } }));
    const { code, err } = await runCli(testArgs(stub.url));
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(stub.requests).toHaveLength(1);
  });

  it("exits 2 when nothing answers at the URL", async () => {
    const { code, err } = await runCli(testArgs(`http://127.0.0.1:${await closedPort()}`));
    expect(code).toBe(2);
    expect(err).toContain("Could not reach the server at http://127.0.0.1:");
    expect(err).toContain("ECONNREFUSED");
  });

  it("exits 2 when the server answers something that is not a test run", async () => {
    stub = await startStubApi(() => ({ status: 201, body: { id: RUN_ID, status: "started" } }));
    const { code, err } = await runCli(testArgs(stub.url));
    expect(code).toBe(2);
    expect(err).toContain("is not a test run as this CLI knows it");
  });

  it("exits 2 when the URL serves a page rather than the API", async () => {
    stub = await startStubApi(() => ({ status: 200, body: "<!doctype html><title>Parley</title>" }));
    const { code, err } = await runCli(testArgs(stub.url));
    expect(code).toBe(2);
    expect(err).toContain("is not JSON: is --url the Parley server's address?");
  });

  it("exits 2 on a usage error without asking the server anything", async () => {
    stub = await startStubApi(runRoutes(failingRunStates()));
    const { code, err } = await runCli(["test", "--suite", SUITE_ID, "--url", stub.url]);
    expect(code).toBe(2);
    expect(err).toContain("Give an API key");
    expect(err).toContain("Usage: parley test");
    expect(stub.requests).toHaveLength(0);
  });
});

describe("parley test riding out a busy or flaky server", () => {
  it("retries reads answered 429, 503 or dropped, then follows the run to its end", async () => {
    const states = failingRunStates();
    const hiccups = [429, 503, 0];
    stub = await startStubApi(
      runRoutes(states, (req) => {
        if (req.method !== "GET" || hiccups.length === 0) return undefined;
        const status = hiccups.shift() as number;
        const headers: Record<string, string> = status === 429 ? { "retry-after": "0" } : {};
        return { status, body: { detail: "busy" }, headers };
      }),
    );
    const { code, out } = await runCli(testArgs(stub.url));
    expect(code).toBe(1);
    expect(out).toContain("✘ Refund flow");
    expect(stub.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("gives up with 2 when reads keep failing", async () => {
    const states = failingRunStates();
    stub = await startStubApi(
      runRoutes(states, (req) => (req.method === "GET" ? { status: 502, body: "" } : undefined)),
    );
    const { code, err } = await runCli(testArgs(stub.url));
    expect(code).toBe(2);
    expect(err).toContain("kept answering 502");
    expect(err).toContain(`stopped watching run ${RUN_ID}`);
  });

  it("does not start a second run when starting one answers 500", async () => {
    stub = await startStubApi(() => ({ status: 500, body: { detail: "Internal server error" } }));
    const { code } = await runCli(testArgs(stub.url));
    expect(code).toBe(2);
    expect(stub.requests).toHaveLength(1);
  });
});

describe("parley test stopping early", () => {
  it("cancels the run at the timeout, writes what it knows and exits 2", async () => {
    const [queued, running] = failingRunStates() as [TestRun, TestRun];
    stub = await startStubApi(runRoutes([queued, running]));
    const report = path.join(mkdtempSync(path.join(tmpdir(), "parley-junit-")), "parley.xml");
    const { code, err } = await runCli(testArgs(stub.url, "--timeout", "0.3", "--junit", report));
    expect(code).toBe(2);
    expect(err).toContain("did not finish within 0.3 s; cancelling it");
    expect(stub.requests.at(-1)?.path).toBe(`/api/v1/test-suites/${SUITE_ID}/runs/${RUN_ID}/cancel`);
    const suite = childrenNamed(parseXml(readFileSync(report, "utf8")), "testsuite")[0];
    expect(suite?.attributes.skipped).toBe("1");
  });

  it("cancels the run when interrupted and exits 1", async () => {
    const [queued, running] = failingRunStates() as [TestRun, TestRun];
    const interrupt = new AbortController();
    stub = await startStubApi(
      runRoutes([queued, running], (req) => {
        if (req.method === "GET") interrupt.abort(new Error("SIGINT received"));
        return undefined;
      }),
    );
    const { code, err } = await runCli(testArgs(stub.url), { signal: interrupt.signal });
    expect(code).toBe(1);
    expect(err).toContain("interrupted; cancelling the run");
    expect(stub.requests.at(-1)?.path).toBe(`/api/v1/test-suites/${SUITE_ID}/runs/${RUN_ID}/cancel`);
  });
});
