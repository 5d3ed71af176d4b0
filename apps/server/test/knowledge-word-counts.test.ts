import type { KnowledgeDocument } from "@parley/contract";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { search, settled, upload } from "./support/documents.ts";

const t = useTestApp();

/** knowledge_lexemes beside the counts read off the chunks themselves: rows that differ. */
async function countsOffBy(workspaceId: string) {
  const result = (await t.ctx.db.execute(sql`
    select coalesce(c.lexeme, k.lexeme) as lexeme, c.chunks as counted, k.chunks as kept
    from (select lexeme, count(*)::int as chunks from document_chunks, unnest(tsvector_to_array(search_vector)) as lexeme
          where workspace_id = ${workspaceId} group by lexeme) as c
    full join (select lexeme, chunks from knowledge_lexemes where workspace_id = ${workspaceId}) as k on k.lexeme = c.lexeme
    where c.chunks is distinct from k.chunks`)) as unknown as { rows: unknown[] };
  return result.rows;
}

async function keptCount(workspaceId: string, lexeme: string) {
  const result = (await t.ctx.db.execute(
    sql`select chunks from knowledge_lexemes where workspace_id = ${workspaceId} and lexeme = ${lexeme}`,
  )) as unknown as { rows: { chunks: number }[] };
  return result.rows[0]?.chunks ?? 0;
}

/** Markdown of one section per paragraph: a chunk each. */
const sections = (paragraphs: string[]) => Buffer.from(paragraphs.map((p, i) => `# Part ${i}\n\n${p}\n`).join("\n"));

async function uploaded(token: string, files: { name: string; data: Buffer }[]) {
  const docs = (await upload(t, token, files)).json<{ documents: KnowledgeDocument[] }>().documents;
  return Promise.all(docs.map((d) => settled(t, token, d.id)));
}

describe("knowledge word counts", () => {
  it("follow chunks as documents are written, refreshed and deleted, per workspace", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const [first, second] = await uploaded(a.token, [
      { name: "one.md", data: sections(["Customers get refunds within ten days.", "Customers may exchange items."]) },
      { name: "two.md", data: sections(["Customers collect parcels at the desk."]) },
    ]);
    await uploaded(b.token, [{ name: "other.md", data: sections(["Customers of another shop."]) }]);
    expect(await keptCount(a.workspaceId, "custom")).toBe(3);
    expect(await keptCount(b.workspaceId, "custom")).toBe(1);
    expect(await countsOffBy(a.workspaceId)).toEqual([]);

    await call(t, "DELETE", `/api/v1/documents/${first?.id}`, { token: a.token });
    expect(await keptCount(a.workspaceId, "custom")).toBe(1);
    expect(await keptCount(a.workspaceId, "refund")).toBe(0);
    expect(await countsOffBy(a.workspaceId)).toEqual([]);

    await call(t, "POST", `/api/v1/documents/${second?.id}/refresh`, { token: a.token });
    await settled(t, a.token, second?.id ?? "");
    expect(await countsOffBy(a.workspaceId)).toEqual([]);
    expect(await keptCount(b.workspaceId, "custom")).toBe(1);

    await t.ctx.db.execute(sql`delete from workspaces where id = ${b.workspaceId}`);
    expect(await keptCount(b.workspaceId, "custom")).toBe(0);
  });

  it("finds chunks by the question's distinctive words and ranks them by all of its words", async () => {
    const a = await signedInUser(t);
    const refund = "Customers ask for a refund at the customer desk; a customer refund takes ten days.";
    // Past 1,000 chunks and 20 % of them, "customer" and "desk" are common words.
    const visits = Array.from({ length: 1100 }, (_, i) => `Customers visit the desk on day ${i}.`);
    await uploaded(a.token, [
      {
        name: "shop.md",
        data: sections([refund, "A refund needs the receipt.", "The desk opens at nine.", ...visits]),
      },
    ]);
    // Only the chunks about refunds are found; the one that also names customers ranks first.
    const found = await search(t, a.token, "Can a customer get a refund?");
    expect(found.results.map((r) => r.text)).toEqual([refund, "A refund needs the receipt."]);
    // Only common words (and a word no chunk has): the chunks holding all of the common ones.
    const common = await search(t, a.token, "Where do customers find the desk?");
    expect(common.results.length).toBeGreaterThan(0);
    for (const result of common.results) expect(result.text).toMatch(/ustomer.*desk/);
    expect((await search(t, a.token, "zebra")).results).toEqual([]);
  });
});
