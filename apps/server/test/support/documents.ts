import type { KnowledgeDocument } from "@parley/contract";
import { call, type TestApp } from "../harness.ts";
import { multipartBody } from "./sample-documents.ts";

/** Uploads files through POST /documents/upload and returns the raw response. */
export function upload(t: TestApp, token: string, files: { name: string; data: Buffer; type?: string }[]) {
  const { payload, headers } = multipartBody(files);
  return t.app.inject({
    method: "POST",
    url: "/api/v1/documents/upload",
    payload,
    headers: { ...headers, authorization: `Bearer ${token}` },
  });
}

/** Polls GET /documents/{id} until the document is ready or failed. */
export async function settled(t: TestApp, token: string, id: string, timeoutMs = 20_000): Promise<KnowledgeDocument> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(t, "GET", `/api/v1/documents/${id}`, { token });
    const doc = res.json<KnowledgeDocument>();
    if (doc.status === "ready" || doc.status === "failed") return doc;
    if (Date.now() > until) throw new Error(`document ${id} still ${doc.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function search(t: TestApp, token: string, q: string, agentId?: string) {
  const query = new URLSearchParams({ q, ...(agentId ? { agent_id: agentId } : {}) });
  const res = await call(t, "GET", `/api/v1/documents/search?${query}`, { token });
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`);
  return res.json<{
    mode: string;
    results: { document_id: string; document_name: string; text: string; heading: string }[];
  }>();
}
