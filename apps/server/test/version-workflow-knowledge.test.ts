import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordCallVersion } from "../src/modules/assistants/call-assistant.ts";
import { workflowEffects } from "../src/modules/workflows/workflow-effects.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { settled, upload } from "./support/documents.ts";

/**
 * A workflow's knowledge step in a call of an assistant version other than the published one (an
 * experiment's variant, a test run's version) searches the documents that version recorded, as the
 * model's own search_knowledge does (issue 30); the published version and the editor's text test
 * read the live links.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

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

/** What a knowledge step finds in a call that recorded `version` (none: the editor's text test). */
async function stepFinds(user: User, agentId: string, version?: number): Promise<string> {
  const tenant = { workspaceId: user.workspaceId };
  const callId = randomUUID();
  if (version !== undefined)
    await recordCallVersion(t.ctx.db, tenant, { callId, agentId }, { version, experimentId: null, variantId: null });
  const effects = workflowEffects(t.ctx, version === undefined ? tenant : { ...tenant, callId }, agentId);
  const found = await effects.searchKnowledge("opening hours", AbortSignal.timeout(10_000));
  await effects.close();
  return found.ok ? found.content : `(nothing: ${found.content})`;
}

describe("a workflow knowledge step in a call of an assistant version", () => {
  it("searches the documents the version recorded, not those linked since", async () => {
    const user = await signedInUser(t);
    const agent = await ok<{ id: string }>(
      call(t, "POST", "/api/v1/agents", { token: user.token, body: { name: "Desk" } }),
      201,
    );
    const id = agent.id;
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
    await link("unlink-agent", before);
    await link("link-agent", after);
    await publish("Ten to six."); // v4, published: the live links

    const v3 = await stepFinds(user, id, 3);
    expect(v3).toContain("nine to five");
    expect(v3).not.toContain("ten to six");
    // The published version and the editor's text test read the live links.
    for (const live of [await stepFinds(user, id, 4), await stepFinds(user, id)]) {
      expect(live).toContain("ten to six");
      expect(live).not.toContain("nine to five");
    }
    // A version published without documents searched the whole workspace, as it did then.
    const v2 = await stepFinds(user, id, 2);
    expect(v2).toContain("nine to five");
    expect(v2).toContain("ten to six");
  });
});
