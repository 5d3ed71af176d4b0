import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ApiKeyScope, CreatedApiKey, type CreateTestCaseBody, TestCaseList, TestRunPage } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { childrenNamed, parseXml, textOf, type XmlNode } from "../../../packages/cli/testing/parse-xml.ts";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { useCallApp } from "./support/realtime-calls.ts";
import { testSuiteModel } from "./support/test-suite-model.ts";
import { createSuite, RUN_TIMEOUT_MS } from "./support/test-suite-runs.ts";

/**
 * `parley test` as a user's CI runs it: the CLI in its own process (node packages/cli/bin/parley.mjs)
 * against a listening app, with an API key made through the API. The suite's calls are real (the
 * offline voice and recogniser, the scripted model that also judges rubrics), so a red suite exits 1
 * with a JUnit report naming the failure, and the same suite with that case fixed exits 0.
 */

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const BIN = path.join(repoRoot, "packages/cli/bin/parley.mjs");

const t = useCallApp(testSuiteModel(() => "Your table is booked for tonight."));
const baseUrl = () => `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

const booking = (name: string, rubric: string): CreateTestCaseBody => ({
  name,
  caller: { mode: "script", script: [{ text: "I would like a table for two tonight.", wait_ms: 300 }] },
  expectations: [{ type: "rubric", rubric }],
});

/** Runs the CLI as a child process from the repository's root; resolves once it has exited. */
async function parley(args: string[]) {
  const env = { ...process.env };
  delete env.PARLEY_URL;
  delete env.PARLEY_API_KEY;
  const child = spawn(process.execPath, [BIN, ...args], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  const [code] = (await once(child, "close")) as [number | null];
  return { code, out, err, all: `${out}\n${err}` };
}

async function apiKey(token: string, scopes: ApiKeyScope[]): Promise<string> {
  const res = await call(t, "POST", "/api/v1/api-keys", { token, body: { name: `CI ${scopes.join("+")}`, scopes } });
  expect(res.statusCode, res.body).toBe(201);
  return CreatedApiKey.parse(res.json()).secret;
}

function testcases(file: string): { suite: XmlNode; cases: Map<string, XmlNode> } {
  const root = parseXml(readFileSync(file, "utf8"));
  const [suite] = childrenNamed(root, "testsuite");
  if (!suite) throw new Error("no <testsuite> in the report");
  return { suite, cases: new Map(childrenNamed(suite, "testcase").map((c) => [c.attributes.name ?? "", c])) };
}

describe("npx parley test", () => {
  it(
    "exits 1 on a suite with a failing case, writing JUnit XML that names it; with the case fixed, exits 0",
    async () => {
      const user = await signedInUser(t);
      const key = await apiKey(user.token, ["calls", "read"]);
      const agentId = await createAssistant(t, user.token, {
        name: "Bistro",
        first_message: "Hello, this is the bistro.",
        ...keylessAssistant(t.llm.baseUrl),
      });
      const suiteId = await createSuite(t, user.token, { name: "Bookings", agent_id: agentId }, [
        booking("books a table", 'The assistant says "booked"'),
        booking("mentions a cancellation", 'The assistant says "cancelled"'),
      ]);
      const reports = mkdtempSync(path.join(tmpdir(), "parley-cli-junit-"));
      const args = (report: string) => [
        "test",
        ...[
          "--suite",
          suiteId,
          "--url",
          baseUrl(),
          "--key",
          key,
          "--junit",
          report,
          "--timeout",
          String(RUN_TIMEOUT_MS / 1000),
        ],
      ];

      const red = await parley(args(path.join(reports, "red.xml")));
      expect(red.code, red.all).toBe(1);
      expect(red.out).toContain("✔ books a table (1/1)");
      expect(red.out).toContain(
        '✘ mentions a cancellation — Rubric: The assistant says "cancelled": The assistant never said "cancelled".',
      );
      expect(red.out).toContain("✘ Run failed: 2 cases — 1 passed, 1 failed, 0 flaky, 0 errors");
      const redReport = testcases(path.join(reports, "red.xml"));
      expect(redReport.suite.attributes).toMatchObject({ name: "Bookings", tests: "2", failures: "1", errors: "0" });
      expect(childrenNamed(redReport.cases.get("books a table") as XmlNode, "failure")).toHaveLength(0);
      const [failure] = childrenNamed(redReport.cases.get("mentions a cancellation") as XmlNode, "failure");
      expect(failure?.attributes).toEqual({ message: 'Rubric: The assistant says "cancelled"', type: "rubric" });
      expect(textOf(failure as XmlNode)).toContain('The assistant never said "cancelled".');
      const [output] = childrenNamed(redReport.cases.get("mentions a cancellation") as XmlNode, "system-out");
      expect(textOf(output as XmlNode)).toMatch(new RegExp(`Call log: ${baseUrl()}/call-logs\\?call=[0-9a-f-]{36}`));

      const runs = await call(t, "GET", `/api/v1/test-suites/${suiteId}/runs`, { token: user.token });
      expect(TestRunPage.parse(runs.json()).data[0]).toMatchObject({ trigger: "cli", status: "failed" });

      // Fix the failing case: it now expects what the assistant says.
      const list = await call(t, "GET", `/api/v1/test-suites/${suiteId}/cases`, { token: user.token });
      const failing = TestCaseList.parse(list.json()).items.find((c) => c.name === "mentions a cancellation");
      const patched = await call(t, "PATCH", `/api/v1/test-suites/${suiteId}/cases/${failing?.id}`, {
        token: user.token,
        body: {
          name: "mentions the booking",
          expectations: [{ type: "rubric", rubric: 'The assistant says "booked"' }],
        },
      });
      expect(patched.statusCode, patched.body).toBe(200);

      const green = await parley(args(path.join(reports, "green.xml")));
      expect(green.code, green.all).toBe(0);
      expect(green.out).toContain("✔ mentions the booking (1/1)");
      expect(green.out).toContain("✔ Run passed: 2 cases — 2 passed, 0 failed, 0 flaky, 0 errors");
      expect(green.out).toContain("newly passing: mentions the booking");
      const greenReport = testcases(path.join(reports, "green.xml"));
      expect(greenReport.suite.attributes).toMatchObject({ tests: "2", failures: "0", errors: "0" });
    },
    2 * RUN_TIMEOUT_MS + 60_000,
  );

  it("exits 2 with the server's message for a key without the calls scope, and for a suite that is not there", async () => {
    const user = await signedInUser(t);
    const readOnly = await apiKey(user.token, ["read"]);
    const missing = "00000000-0000-4000-8000-000000000000";
    const refused = await parley(["test", "--suite", missing, "--url", baseUrl(), "--key", readOnly]);
    expect(refused.code, refused.all).toBe(2);
    expect(refused.err).toContain('The server refused the API key (403): This API key lacks the "calls" scope.');

    const key = await apiKey(user.token, ["calls", "read"]);
    const notFound = await parley(["test", "--suite", missing, "--url", baseUrl(), "--key", key]);
    expect(notFound.code, notFound.all).toBe(2);
    expect(notFound.err).toContain("Test suite not found");

    const wrongKey = await parley(["test", "--suite", missing, "--url", baseUrl(), "--key", "pk_live_not_a_key"]);
    expect(wrongKey.code, wrongKey.all).toBe(2);
    expect(wrongKey.err).toContain("The server refused the API key (401)");
  });
});
