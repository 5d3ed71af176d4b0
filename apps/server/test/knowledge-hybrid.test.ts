import type { KnowledgeDocument, KnowledgeSettingsResponse } from "@parley/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentChunks } from "../src/modules/knowledge-base/schema.ts";
import { call, createTestApp, signedInUser, type TestApp, testDatabaseKind } from "./harness.ts";
import { search, settled, upload } from "./support/documents.ts";
import { type EmbeddingsDouble, startEmbeddingsDouble } from "./support/embeddings-double.ts";

let t: TestApp;
let double: EmbeddingsDouble;
beforeAll(async () => {
  double = await startEmbeddingsDouble();
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  await t.close();
  await double.close();
});

const SHOP = `# Shop help

## Refunds

We give your money back within fourteen days if you return the item unused.

## Delivery

Parcels arrive within three working days and shipping is free above fifty euros.

## Contact

Send us a message and the back office replies within a day.
`;

const QUESTION = "Can I be reimbursed when I send a purchase back?";

async function embeddedWith(workspaceId: string, key: string, expected: number) {
  for (let i = 0; i < 200; i += 1) {
    const rows = await t.ctx.db
      .select({ id: documentChunks.id })
      .from(documentChunks)
      .where(and(eq(documentChunks.workspaceId, workspaceId), eq(documentChunks.embeddingModel, key)));
    if (rows.length === expected) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`chunks were not embedded with ${key}`);
}

describe("hybrid retrieval", () => {
  it("fuses embeddings with full-text search, beating keywords alone on a paraphrase, and re-embeds on a change", async () => {
    const a = await signedInUser(t);
    const saved = await call(t, "PUT", "/api/v1/integrations/openai-compatible", {
      token: a.token,
      body: { credentials: { base_url: double.baseUrl } },
    });
    expect(saved.statusCode).toBe(200);
    const res = await upload(t, a.token, [{ name: "shop.md", data: Buffer.from(SHOP) }]);
    const doc = await settled(t, a.token, res.json<{ documents: KnowledgeDocument[] }>().documents[0]?.id ?? "");
    expect(doc.chunk_count).toBe(3);

    // Keywords alone: "send … back" points at the contact chunk.
    const keyword = await search(t, a.token, QUESTION);
    expect(keyword.mode).toBe("keyword");
    expect(keyword.results[0]?.heading).toBe("Shop help › Contact");

    const settings = await call(t, "PUT", "/api/v1/documents/settings", {
      token: a.token,
      body: { embeddings_provider: "openai-compatible", embeddings_model: "concepts-1" },
    });
    const body = settings.json<KnowledgeSettingsResponse>();
    // pgvector ships with the embedded database; a PostgreSQL server may lack it.
    if (testDatabaseKind === "pglite") expect(body.vector_search_available).toBe(true);
    if (!body.vector_search_available) {
      // A PostgreSQL without pgvector: keyword search stays, and says so.
      expect((await search(t, a.token, QUESTION)).mode).toBe("keyword");
      return;
    }
    await embeddedWith(a.workspaceId, "openai-compatible/concepts-1", 3);
    const hybrid = await search(t, a.token, QUESTION);
    expect(hybrid.mode).toBe("hybrid");
    expect(hybrid.results[0]?.heading).toBe("Shop help › Refunds");

    // A new model re-embeds every chunk.
    await call(t, "PUT", "/api/v1/documents/settings", {
      token: a.token,
      body: { embeddings_provider: "openai-compatible", embeddings_model: "concepts-2" },
    });
    await embeddedWith(a.workspaceId, "openai-compatible/concepts-2", 3);
    expect(double.models).toContain("concepts-2");
    expect((await search(t, a.token, QUESTION)).results[0]?.heading).toBe("Shop help › Refunds");

    // New uploads are embedded as they are processed.
    const more = await upload(t, a.token, [{ name: "more.txt", data: Buffer.from("Orders ship the same day.") }]);
    await settled(t, a.token, more.json<{ documents: KnowledgeDocument[] }>().documents[0]?.id ?? "");
    await embeddedWith(a.workspaceId, "openai-compatible/concepts-2", 4);
  });

  it("saves the embeddings choice, with the provider's default model when none is given", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "GET", "/api/v1/documents/settings", { token: a.token });
    expect(res.json()).toMatchObject({ embeddings_provider: null, embeddings_model: null });
    const defaults = await call(t, "PUT", "/api/v1/documents/settings", {
      token: a.token,
      body: { embeddings_provider: "openai", embeddings_model: null },
    });
    expect(defaults.json()).toMatchObject({
      embeddings_provider: "openai",
      embeddings_model: "text-embedding-3-small",
    });
  });
});
