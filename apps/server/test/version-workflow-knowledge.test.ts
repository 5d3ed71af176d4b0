import { randomUUID } from "node:crypto";
import { wfEdge, wfNode } from "@parley/engine/testing/workflow-graphs";
import { describe, expect, it } from "vitest";
import { callVersionsOf, recordCallVersion } from "../src/modules/assistants/call-assistant.ts";
import { workflowEffects } from "../src/modules/workflows/workflow-effects.ts";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { settled, upload } from "./support/documents.ts";
import { closedCallLog, joinCall, useCallApp } from "./support/realtime-calls.ts";
import type { ModelScript } from "./support/scripted-llm.ts";

/**
 * A workflow's knowledge step in a call of an assistant version other than the published one (an
 * experiment's variant, a test run's version) searches the documents that version recorded, as the
 * model's own search_knowledge does (issue 30); the published version and the editor's text test
 * read the live links.
 */
/** The assistant's model reads out what the workflow's knowledge step found (its step prompt holds it). */
const script: ModelScript = (request) => {
  const found = /open from (\w+ to \w+)/.exec(JSON.stringify(request.messages))?.[1];
  return { text: found ? `We are open from ${found}.` : "Hello." };
};

const t = useCallApp(script);

type User = { token: string; workspaceId: string };

async function ok<T>(response: ReturnType<typeof call>, status = 200): Promise<T> {
  const res = await response;
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

async function documentOf(user: User, name: string, text: string): Promise<string> {
  const uploaded = await upload(t, user.token, [{ name, data: Buffer.from(text) }]);
  const doc = uploaded.json<{ documents: { id: string }[] }>().documents[0];
  if (!doc) throw new Error(`no document: ${uploaded.body}`);
  expect((await settled(t, user.token, doc.id)).status).toBe("ready");
  return doc.id;
}

/**
 * What a knowledge step of `agentId` finds in a call that recorded `version` (none: the editor's
 * text test) for `recordedFor` (by default the same assistant).
 */
async function stepFinds(user: User, agentId: string, version?: number, recordedFor = agentId): Promise<string> {
  const tenant = { workspaceId: user.workspaceId };
  const callId = randomUUID();
  if (version !== undefined)
    await recordCallVersion(
      t.ctx.db,
      tenant,
      { callId, agentId: recordedFor },
      { version, experimentId: null, variantId: null },
    );
  const effects = workflowEffects(t.ctx, version === undefined ? tenant : { ...tenant, callId }, agentId);
  const found = await effects.searchKnowledge("opening hours", AbortSignal.timeout(10_000));
  await effects.close();
  return found.ok ? found.content : `(nothing: ${found.content})`;
}

/**
 * An assistant whose v2 recorded no documents, v3 and v4 the "nine to five" one and v5 (published)
 * the "ten to six" one; `attach` runs before v2 is published (a workflow to pin).
 */
async function versionsWithDocuments(user: User, attach?: (agentId: string) => Promise<void>) {
  const id = await createAssistant(t, user.token, {
    name: "Desk",
    first_message: "Hello.",
    ...keylessAssistant(t.llm.baseUrl),
  });
  await attach?.(id);
  const api = (method: "POST" | "PUT", url: string, body: Record<string, unknown>) =>
    ok(call(t, method, `/api/v1${url}`, { token: user.token, body }));
  const link = (action: "link-agent" | "unlink-agent", documentId: string) =>
    api("POST", `/documents/${action}`, { agent_id: id, document_id: documentId });
  const publish = async (prompt: string) => {
    await api("PUT", `/agents/${id}/draft`, { system_prompt: prompt });
    await api("POST", `/agents/${id}/publish`, { note: prompt });
  };
  const before = await documentOf(user, "hours.md", "# Opening hours\n\nWe are open from nine to five.");
  const after = await documentOf(user, "new-hours.md", "# Opening hours\n\nWe are open from ten to six.");
  await publish("No documents yet."); // v2: recorded no documents
  await link("link-agent", before);
  await publish("Nine to five."); // v3
  await publish("Nine to five, again."); // v4
  await link("unlink-agent", before);
  await link("link-agent", after);
  await publish("Ten to six."); // v5, published: the live links
  return id;
}

describe("a workflow knowledge step in a call of an assistant version", () => {
  it("searches the documents the version recorded, not those linked since", async () => {
    const user = await signedInUser(t);
    const id = await versionsWithDocuments(user);
    const v3 = await stepFinds(user, id, 3);
    expect(v3).toContain("nine to five");
    expect(v3).not.toContain("ten to six");
    // The published version and the editor's text test read the live links.
    for (const live of [await stepFinds(user, id, 5), await stepFinds(user, id)]) {
      expect(live).toContain("ten to six");
      expect(live).not.toContain("nine to five");
    }
    // A version published without documents searched the whole workspace, as it did then.
    const v2 = await stepFinds(user, id, 2);
    expect(v2).toContain("nine to five");
    expect(v2).toContain("ten to six");
  });

  it("reads another assistant's live links in a call recorded for a version of the first (a squad's hand-off)", async () => {
    const user = await signedInUser(t);
    const first = await versionsWithDocuments(user);
    const second = await versionsWithDocuments(user);
    const found = await stepFinds(user, second, 3, first);
    expect(found).toContain("ten to six");
    expect(found).not.toContain("nine to five");
  });

  it("reads them in a real call: an experiment's variant answers from its version's document", async () => {
    const user = await signedInUser(t);
    // Creating answers 201, everything else 200.
    const api = async <T>(method: "POST" | "PATCH", url: string, body?: Record<string, unknown>, status = 200) =>
      ok<T>(call(t, method, `/api/v1${url}`, { token: user.token, ...(body ? { body } : {}) }), status);
    // The assistant's workflow greets, looks the hours up in a knowledge step, and reads them out.
    const withWorkflow = async (agentId: string) => {
      const workflow = await api<{ id: string }>("POST", "/workflows", { name: "Hours", assistant_id: agentId }, 201);
      await api("PATCH", `/workflows/${workflow.id}`, {
        variables: [{ name: "hours", type: "string", description: "The opening hours" }],
        graph: {
          nodes: [
            wfNode("start", "start", { name: "Start", greeting: "Hello.", prompt: "" }),
            wfNode("faq", "knowledge", { name: "Hours", query: "opening hours", result_variable: "hours" }),
            wfNode("bye", "end", { name: "Goodbye", message: "Goodbye." }),
            wfNode("answer", "conversation", {
              name: "Answer",
              prompt: "Read this to the caller: {{hours}}",
              collect: [],
            }),
          ],
          edges: [
            wfEdge("start", "faq"),
            wfEdge("faq", "answer"),
            wfEdge("answer", "bye", { kind: "model", description: "The caller says goodbye" }),
          ],
        },
      });
      await api("POST", `/workflows/${workflow.id}/publish`);
    };
    const id = await versionsWithDocuments(user, withWorkflow);
    const experiment = await api<{ id: string }>(
      "POST",
      `/agents/${id}/experiments`,
      {
        name: "Hours",
        variants: [
          { version: 3, percent: 50 },
          { version: 4, percent: 50 },
        ],
      },
      201,
    );
    await api("POST", `/agents/${id}/experiments/${experiment.id}/start`);

    const { client, callId } = await joinCall(t, user.token, id);
    await client.waitFor("ready");
    const answers = () => client.messages.filter((m) => m.type === "transcript" && m.role === "assistant" && m.final);
    await client.until(() => answers().length >= 1, "the greeting");
    client.send({ type: "text", text: "When are you open?" });
    await client.until(() => answers().length >= 2, "the answer", 30_000);
    client.send({ type: "hangup" });
    const log = await closedCallLog(t, user.token, callId);
    expect([3, 4]).toContain((await callVersionsOf(t.ctx.db, user, [callId])).get(callId)?.version);
    expect(log.workflow?.path.map((step) => step.node_id)).toEqual(["start", "faq", "answer"]);
    expect(String(answers()[1]?.text)).toBe("We are open from nine to five.");
  });
});
