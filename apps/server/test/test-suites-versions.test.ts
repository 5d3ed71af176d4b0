import { type CallLog, TEST_SUITE_TEXTS, type TestRun } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { useCallApp } from "./support/realtime-calls.ts";
import type { ModelScript } from "./support/scripted-llm.ts";
import { isJudgeRequest, testSuiteModel } from "./support/test-suite-model.ts";
import { createSuite, finishedRun, RUN_TIMEOUT_MS, resultOf, startRun } from "./support/test-suite-runs.ts";

/**
 * A test run calls the assistant version it was started for (issue 30): its calls run that
 * version's configuration and links as an experiment variant's call does, whatever is published; by
 * default the version published when the run starts. The run, each result and each call log say which.
 */

/** The judge and the simulated caller as every test run has them. */
const suiteParts = testSuiteModel(() => "");

/** The assistant answers with the version its prompt names, so a call shows which configuration ran. */
const script: ModelScript = (request) => {
  const system = request.messages[0]?.content ?? "";
  if (isJudgeRequest(request) || system.includes("role-playing a caller")) return suiteParts(request);
  return { text: system.includes("PROMPT-ONE") ? "This is version one speaking." : "This is version two speaking." };
};

const t = useCallApp(script);
type User = Awaited<ReturnType<typeof signedInUser>>;

async function ok<T>(user: User, method: "GET" | "POST" | "PUT", url: string, body?: unknown): Promise<T> {
  const res = await call(t, method, `/api/v1${url}`, { token: user.token, ...(body ? { body } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

/** An assistant whose v1 says "version one" and whose published v2 says "version two", with a suite expecting "version one". */
async function twoVersions(user: User) {
  const agentId = await createAssistant(t, user.token, {
    name: "Versions desk",
    first_message: "Hello.",
    ...keylessAssistant(t.llm.baseUrl),
    system_prompt: "PROMPT-ONE: you are the first version.",
  });
  await ok(user, "PUT", `/agents/${agentId}/draft`, { system_prompt: "PROMPT-TWO: you are the second version." });
  await ok(user, "POST", `/agents/${agentId}/publish`, { note: "Second prompt" });
  const suiteId = await createSuite(t, user.token, { name: "Which version", agent_id: agentId }, [
    {
      name: "says its version",
      caller: { mode: "script", script: [{ text: "Which version are you?", wait_ms: 300 }] },
      expectations: [{ type: "rubric", rubric: 'The assistant says "version one"' }],
    },
  ]);
  return { agentId, suiteId };
}

const callLog = (user: User, callId: string | null) => ok<CallLog>(user, "GET", `/call-logs/${callId}`);

describe("a test run of an assistant version", () => {
  it(
    "runs v1's prompt while v2 is published, and v2 by default; the run, result and call log record it",
    async () => {
      const user = await signedInUser(t);
      const { suiteId } = await twoVersions(user);

      const asked = await startRun(t, user.token, suiteId, { version: 1 });
      expect(asked.agent_version).toBe(1);
      const one = await finishedRun(t, user.token, suiteId, asked.id);
      const result = resultOf(one, "says its version");
      const log = await callLog(user, result.call_id);
      const seen = JSON.stringify({ result, transcript: log.transcript });
      expect(result.status, seen).toBe("passed");
      expect(result.agent_version).toBe(1);
      expect(log.agent_version).toBe(1);
      expect(log.transcript.some((line) => line.text.includes("version one"))).toBe(true);

      // No version asked: the one published when the run starts.
      const byDefault = await startRun(t, user.token, suiteId);
      expect(byDefault.agent_version).toBe(2);
      const two = await finishedRun(t, user.token, suiteId, byDefault.id);
      const second = resultOf(two, "says its version");
      expect(second.status).toBe("failed");
      expect(second.agent_version).toBe(2);
      expect((await callLog(user, second.call_id)).agent_version).toBe(2);
      const listed = await ok<{ data: TestRun[] }>(user, "GET", `/test-suites/${suiteId}/runs`);
      expect(listed.data.map((run) => run.agent_version)).toEqual([2, 1]);
    },
    2 * RUN_TIMEOUT_MS,
  );

  it("refuses a version the assistant does not have, saying which it has", async () => {
    const user = await signedInUser(t);
    const { suiteId } = await twoVersions(user);
    const res = await call(t, "POST", `/api/v1/test-suites/${suiteId}/runs`, {
      token: user.token,
      body: { version: 7 },
    });
    expect(res.statusCode).toBe(422);
    const message = TEST_SUITE_TEXTS.unknownVersion(7, 2);
    expect(message).toBe("The assistant has no version 7: its versions are 1 to 2.");
    expect(res.json()).toMatchObject({ detail: message, errors: [{ field: "version", message }] });
    const runs = await ok<{ data: TestRun[] }>(user, "GET", `/test-suites/${suiteId}/runs`);
    expect(runs.data).toEqual([]);
  });
});
