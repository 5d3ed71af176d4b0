import type { KnowledgeDocument } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { settled, upload } from "./support/documents.ts";
import { APP_ORIGIN, closedCallLog, joinCall, useCallApp } from "./support/realtime-calls.ts";
import { searchingModel } from "./support/scripted-llm.ts";

/** The model searches the knowledge base for any question, then reads the answer off the first chunk. */
const script = searchingModel("Hello.");

const t = useCallApp(script);

describe("knowledge in calls", () => {
  it("lets the model search the assistant's documents and logs the search", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {
      name: "Clinic",
      first_message: "Hello.",
      ...keylessAssistant(t.llm.baseUrl),
    });
    const res = await upload(t, a.token, [
      {
        name: "policies.md",
        data: Buffer.from("# Policies\n\n## Cancellations\n\nCancel at least 24 hours ahead to avoid a fee."),
      },
    ]);
    const doc = res.json<{ documents: KnowledgeDocument[] }>().documents[0];
    if (!doc) throw new Error("no document");
    await settled(t, a.token, doc.id);
    await call(t, "POST", "/api/v1/documents/link-agent", {
      token: a.token,
      body: { agent_id: agent, document_id: doc.id },
    });

    const { client, callId } = await joinCall(t, a.token, agent, { origin: APP_ORIGIN });
    await client.waitFor("ready");
    client.send({ type: "text", text: "How late can I cancel?" });
    expect(await client.waitFor("tool_call")).toMatchObject({ name: "search_knowledge", ok: true });
    await client.waitFor(
      "transcript",
      (m) => m.role === "assistant" && m.final === true && /24 hours/.test(String(m.text)),
    );
    client.send({ type: "hangup" });
    await client.closed;

    const log = await closedCallLog(t, a.token, callId);
    expect(log.tool_calls).toHaveLength(1);
    const entry = log.tool_calls[0];
    expect(entry?.name).toBe("search_knowledge");
    expect(JSON.parse(entry?.arguments ?? "{}")).toEqual({ query: "How late can I cancel?" });
    const result = JSON.parse(entry?.result ?? "{}") as { query: string; results: Record<string, string>[] };
    expect(result.query).toBe("How late can I cancel?");
    expect(result.results[0]).toMatchObject({
      document_id: doc.id,
      document: "policies.md",
      heading: "Policies › Cancellations",
      text: "Cancel at least 24 hours ahead to avoid a fee.",
    });
  });

  it("offers no knowledge tool to an assistant without documents", async () => {
    const { knowledgeTools } = await import("../src/modules/calls/tool-runner.ts");
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, { name: "Bare" });
    expect(await knowledgeTools(t.ctx, { workspaceId: a.workspaceId }, agent, { warn: () => undefined })).toEqual([]);
  });
});
