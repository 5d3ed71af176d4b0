import type { KnowledgeDocument } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { searchDocuments } from "../src/modules/knowledge-base/search.ts";
import { signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { settled, upload } from "./support/documents.ts";

const t: TestApp = useTestApp();

const warnings: string[] = [];
const log = { warn: (_obj: object, msg: string) => warnings.push(msg) };

async function document(token: string, name: string, text: string): Promise<string> {
  const res = await upload(t, token, [{ name, data: Buffer.from(text) }]);
  const doc = await settled(t, token, res.json<{ documents: KnowledgeDocument[] }>().documents[0]?.id ?? "");
  expect(doc.status).toBe("ready");
  return doc.id;
}

describe("search within a fixed list of documents (an assistant version's)", () => {
  it("reads only the listed documents of the workspace: none when the list is empty or another workspace's", async () => {
    const a = await signedInUser(t);
    const refunds = await document(
      a.token,
      "refunds.md",
      "# Refunds\n\nA refund reaches your card within fourteen days.",
    );
    await document(a.token, "more-refunds.md", "# Refunds abroad\n\nA refund abroad takes thirty days.");
    const other = await signedInUser(t);
    const foreign = await document(other.token, "theirs.md", "# Refunds\n\nTheir refund policy.");

    const search = (documentIds: string[]) =>
      searchDocuments(t.ctx, { workspaceId: a.workspaceId }, { q: "refund", limit: 5 }, log, { documentIds });
    const everything = await searchDocuments(t.ctx, { workspaceId: a.workspaceId }, { q: "refund", limit: 5 }, log);
    expect(everything.results).toHaveLength(2);

    const pinned = await search([refunds]);
    expect(pinned.results.map((r) => r.document_id)).toEqual([refunds]);
    expect((await search([])).results).toEqual([]);
    expect((await search([foreign])).results).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
