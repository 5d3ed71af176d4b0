import { describe, expect, it } from "vitest";
import { callVersionsOf } from "../src/modules/assistants/call-assistant.ts";
import { loadPublishedWorkflow } from "../src/modules/workflows/published.ts";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { settled, upload } from "./support/documents.ts";
import { closedCallLog, joinCall, useCallApp } from "./support/realtime-calls.ts";
import { type ChatRequestBody, searchingModel } from "./support/scripted-llm.ts";

/**
 * A call of an assistant version other than the published one (an experiment's variant) runs the
 * functions that version was published with, not the assistant's live ones (issue 30).
 */

/** The model searches the documents for a question when it may, then reads the first chunk out. */
const script = searchingModel("Happy to help.");

const t = useCallApp(script);
type User = { token: string; workspaceId: string };

const api = (user: User, method: "GET" | "POST" | "PUT" | "DELETE", url: string, body?: Record<string, unknown>) =>
  call(t, method, `/api/v1${url}`, { token: user.token, ...(body ? { body } : {}) });

async function ok<T>(response: ReturnType<typeof api>, status = 200): Promise<T> {
  const res = await response;
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

async function createFunction(user: User, name: string): Promise<string> {
  const created = await ok<{ id: string }>(
    api(user, "POST", "/functions", {
      name,
      description: `The ${name} tool`,
      parameters: { type: "object", properties: {} },
      // Never called: the test reads which tools the model is offered.
      url: "https://hooks.example.com/never-called",
    }),
    201,
  );
  return created.id;
}

/** Links exactly `functionId` (unlinking `previous`) and publishes the draft as the next version. */
async function publishWithFunction(user: User, agentId: string, functionId: string, previous?: string) {
  if (previous) await ok(api(user, "POST", "/functions/unassign", { agent_id: agentId, function_id: previous }));
  await ok(api(user, "POST", "/functions/assign", { agent_id: agentId, function_id: functionId }));
  await ok(api(user, "PUT", `/agents/${agentId}/draft`, { system_prompt: `Offers ${functionId}.` }));
  await ok(api(user, "POST", `/agents/${agentId}/publish`, { note: functionId }));
}

const toolNames = (request: ChatRequestBody | undefined) =>
  (request?.tools ?? [])
    .map((tool) => tool.function.name)
    .filter((name) => name.startsWith("fn_") || name === "search_knowledge");

/** Starts a 50/50 experiment between two versions, neither of them the published one. */
async function startExperiment(user: User, agentId: string, versions: [number, number]) {
  const created = await ok<{ id: string }>(
    api(user, "POST", `/agents/${agentId}/experiments`, {
      name: "Links",
      variants: versions.map((version) => ({ version, percent: 50 })),
    }),
    201,
  );
  await ok(api(user, "POST", `/agents/${agentId}/experiments/${created.id}/start`));
}

/** One browser call: the caller says one line; returns the version recorded, the tools the model was offered and its answer. */
async function toolsOfACall(user: User, agentId: string, line = "What can you do?") {
  const before = t.llm.requests.length;
  const { client, callId } = await joinCall(t, user.token, agentId);
  await client.waitFor("ready");
  const answers = () => client.messages.filter((m) => m.type === "transcript" && m.role === "assistant" && m.final);
  await client.until(() => answers().length >= 1, "the greeting");
  client.send({ type: "text", text: line });
  await client.until(() => answers().length >= 2, "the answer", 30_000);
  client.send({ type: "hangup" });
  const log = await closedCallLog(t, user.token, callId);
  const version = (await callVersionsOf(t.ctx.db, user, [callId])).get(callId)?.version;
  const asked = t.llm.requests.slice(before).find((r) => (r.tools ?? []).length > 0);
  return { version, tools: toolNames(asked), status: log.status, answer: String(answers()[1]?.text) };
}

describe("a call of an assistant version", () => {
  it("offers the functions its version was published with, and skips those deleted since", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, { ...keylessAssistant(t.llm.baseUrl), first_message: "Hello." });
    const [two, three, live] = [
      await createFunction(a, "fn_version_two"),
      await createFunction(a, "fn_version_three"),
      await createFunction(a, "fn_live"),
    ];
    await publishWithFunction(a, id, two as string); // v2
    await publishWithFunction(a, id, three as string, two); // v3
    await publishWithFunction(a, id, live as string, three); // v4, published: its links are the live ones
    // Neither variant is the published version, so whichever a caller gets runs from its snapshot.
    await startExperiment(a, id, [2, 3]);

    const first = await toolsOfACall(a, id);
    const expected: Record<number, string[]> = { 2: ["fn_version_two"], 3: ["fn_version_three"] };
    expect(first.status).toBe("completed");
    expect(first.tools).toEqual(expected[first.version ?? 0]);

    // Deleted since publishing: the version's call goes ahead without them, never with the live one.
    await ok(api(a, "DELETE", `/functions/${two}`));
    await ok(api(a, "DELETE", `/functions/${three}`));
    const second = await toolsOfACall(a, id);
    expect(second.status).toBe("completed");
    expect([2, 3]).toContain(second.version);
    expect(second.tools).toEqual([]);
  });

  it("records its documents, and has no knowledge search when it was published with none", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, { ...keylessAssistant(t.llm.baseUrl), first_message: "Hello." });
    await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: "Still no documents." }));
    await ok(api(a, "POST", `/agents/${id}/publish`, { note: "v2" }));
    const uploaded = await upload(t, a.token, [{ name: "hours.md", data: Buffer.from("# Hours\n\nOpen 9 to 5.") }]);
    const doc = uploaded.json<{ documents: { id: string }[] }>().documents[0];
    if (!doc) throw new Error(`no document: ${uploaded.body}`);
    await ok(api(a, "POST", "/documents/link-agent", { agent_id: id, document_id: doc.id }));
    await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: "With the hours." }));
    await ok(api(a, "POST", `/agents/${id}/publish`, { note: "v3" }));
    const [v2, v3] = [
      await ok<{ links: Record<string, unknown> }>(api(a, "GET", `/agents/${id}/versions/2`)),
      await ok<{ links: Record<string, unknown> }>(api(a, "GET", `/agents/${id}/versions/3`)),
    ];
    expect(v2.links).toMatchObject({ document_ids: [] });
    expect(v3.links).toMatchObject({ document_ids: [doc.id] });

    // Versions 1 and 2 were published without documents: their calls offer no search, the live one would.
    await startExperiment(a, id, [1, 2]);
    const run = await toolsOfACall(a, id);
    expect([1, 2]).toContain(run.version);
    expect(run.tools).toEqual([]);
  });

  it("searches the documents its version was published with, not those linked since", async () => {
    const a = await signedInUser(t);
    const id = await createAssistant(t, a.token, { ...keylessAssistant(t.llm.baseUrl), first_message: "Hello." });
    const documentOf = async (name: string, text: string) => {
      const uploaded = await upload(t, a.token, [{ name, data: Buffer.from(text) }]);
      const doc = uploaded.json<{ documents: { id: string }[] }>().documents[0];
      if (!doc) throw new Error(`no document: ${uploaded.body}`);
      expect((await settled(t, a.token, doc.id)).status).toBe("ready");
      return doc.id;
    };
    const before = await documentOf("hours.md", "# Opening hours\n\nWe are open from nine to five.");
    const after = await documentOf("new-hours.md", "# Opening hours\n\nWe are open from ten to six.");
    const link = (action: "link-agent" | "unlink-agent", documentId: string) =>
      ok(api(a, "POST", `/documents/${action}`, { agent_id: id, document_id: documentId }));
    const publish = async (prompt: string) => {
      await ok(api(a, "PUT", `/agents/${id}/draft`, { system_prompt: prompt }));
      await ok(api(a, "POST", `/agents/${id}/publish`, { note: prompt }));
    };
    await link("link-agent", before);
    await publish("Nine to five."); // v2
    await publish("Nine to five, again."); // v3
    await link("unlink-agent", before);
    await link("link-agent", after);
    await publish("Ten to six."); // v4, published: the live links
    await startExperiment(a, id, [2, 3]);
    const run = await toolsOfACall(a, id, "When are you open?");
    expect([2, 3]).toContain(run.version);
    expect(run.tools).toEqual(["search_knowledge"]);
    expect(run.answer).toContain("nine to five");
  });

  it("loads the workflow version an assistant version pins, not the latest", async () => {
    const a = await signedInUser(t);
    const workflow = await ok<{ id: string }>(api(a, "POST", "/workflows", { name: "Intake" }), 201);
    await ok(api(a, "POST", `/workflows/${workflow.id}/publish`));
    await ok(api(a, "POST", `/workflows/${workflow.id}/publish`));
    const tenant = { workspaceId: a.workspaceId };
    const assistant = { workflow_id: workflow.id };
    expect(await loadPublishedWorkflow(t.ctx.db, tenant, assistant)).toMatchObject({ version: 2 });
    expect(await loadPublishedWorkflow(t.ctx.db, tenant, assistant, 1)).toMatchObject({ version: 1 });
    expect(await loadPublishedWorkflow(t.ctx.db, tenant, assistant, 7)).toBeNull();
  });
});
