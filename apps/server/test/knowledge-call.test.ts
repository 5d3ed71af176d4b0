import type { AddressInfo } from "node:net";
import type { KnowledgeDocument } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant, roomToken, startRoom } from "./support/calls.ts";
import { settled, upload } from "./support/documents.ts";
import { RealtimeClient } from "./support/realtime-client.ts";
import {
  type ChatRequestBody,
  lastUserText,
  type ScriptedLlm,
  type ScriptedReply,
  startScriptedLlm,
} from "./support/scripted-llm.ts";

let t: TestApp;
let llm: ScriptedLlm;
let wsBase: string;

/** The model searches the knowledge base for any question, then reads the answer off the first chunk. */
function script(request: ChatRequestBody): ScriptedReply {
  const result = request.messages.findLast((m) => m.role === "tool")?.content;
  if (result) {
    const parsed = JSON.parse(result) as { results: { text: string }[] };
    return { text: parsed.results[0]?.text ?? "I could not find that." };
  }
  const offered = request.tools?.map((tool) => tool.function.name) ?? [];
  const said = lastUserText(request);
  if (said.endsWith("?") && offered.includes("search_knowledge")) {
    return { toolCall: { name: "search_knowledge", arguments: JSON.stringify({ query: said }) } };
  }
  return { text: "Hello." };
}

beforeAll(async () => {
  llm = await startScriptedLlm(script);
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/realtime`;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("knowledge in calls", () => {
  it("lets the model search the assistant's documents and logs the search", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {
      name: "Clinic",
      first_message: "Hello.",
      llm_provider: "openai-compatible",
      llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
      stt_provider: "local",
      stt_provider_config: {},
      tts_provider: "local",
      tts_provider_config: { model: "espeak-ng", voice: "en-us" },
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

    const { room, callId } = await startRoom(t, a.token, agent);
    const client = await RealtimeClient.connect(
      `${wsBase}?token=${encodeURIComponent(await roomToken(t, a.token, room))}`,
      { origin: "http://localhost:5173" },
    );
    await client.waitFor("ready");
    client.send({ type: "text", text: "How late can I cancel?" });
    expect(await client.waitFor("tool_call")).toMatchObject({ name: "search_knowledge", ok: true });
    await client.waitFor(
      "transcript",
      (m) => m.role === "assistant" && m.final === true && /24 hours/.test(String(m.text)),
    );
    client.send({ type: "hangup" });
    await client.closed;

    let log: { status: string; tool_calls: { name: string; arguments: string; result: string }[] } | undefined;
    for (let i = 0; i < 100 && log?.status !== "completed"; i += 1) {
      log = (await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: a.token })).json();
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log?.tool_calls).toHaveLength(1);
    const entry = log?.tool_calls[0];
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
