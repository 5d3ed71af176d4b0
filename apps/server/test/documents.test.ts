import { DOCUMENT_LIMITS, DOCUMENT_MAX_FILE_BYTES, type KnowledgeDocument } from "@parley/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { PROCESS_QUEUE } from "../src/modules/knowledge-base/processing.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { search, settled, upload } from "./support/documents.ts";
import { makeDocx, makePdf } from "./support/sample-documents.ts";
import { until } from "./support/until.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SAMPLES = [
  {
    // A PDF named .txt: the type comes from the bytes.
    name: "handbook.txt",
    data: makePdf([
      ["Staff handbook", "Welcome to the clinic."],
      ["Holidays", "Every employee gets twenty-eight days of annual leave."],
    ]),
    kind: "pdf",
    question: "How many days of annual leave do employees get?",
    expect: /twenty-eight days/,
  },
  {
    name: "parking.docx",
    data: makeDocx([
      ["h1", "Visiting us"],
      ["p", "The entrance is on Mill Street."],
      ["h2", "Parking"],
      ["p", "The garage under the building is free for patients after six in the evening."],
    ]),
    kind: "docx",
    question: "Is the garage free for patients?",
    expect: /garage under the building/,
  },
  {
    name: "notes.txt",
    data: Buffer.from("Our receptionist is called Marguerite.\n\nShe speaks French and Portuguese."),
    kind: "text",
    question: "What is the receptionist called?",
    expect: /Marguerite/,
  },
  {
    name: "faq.md",
    data: Buffer.from(
      "# FAQ\n\n## Payments\n\nWe accept cash, cards and bank transfers.\n\n## Pets\n\nGuide dogs are welcome.\n",
    ),
    kind: "markdown",
    question: "Which payments do you accept?",
    expect: /bank transfers/,
  },
  {
    name: "page.html",
    data: Buffer.from(
      "<!doctype html><html><head><title>Hours</title></head><body><nav>Home | About</nav><article><h1>Opening hours</h1><p>The clinic opens at eight on weekdays and stays open until seven in the evening, except on public holidays when it is closed all day.</p><h2>Weekends</h2><p>On Saturdays the clinic opens from nine until noon for emergencies only.</p></article></body></html>",
    ),
    kind: "html",
    question: "When does the clinic open on Saturdays?",
    expect: /Saturdays/,
  },
  {
    name: "prices.csv",
    data: Buffer.from(
      "treatment,price,duration\nCleaning,60 EUR,30 minutes\nWhitening,250 EUR,90 minutes\nFilling,120 EUR,45 minutes\n",
    ),
    kind: "csv",
    question: "What does whitening cost?",
    expect: /Whitening; price: 250 EUR|treatment: Whitening; price: 250 EUR/,
  },
] as const;

describe("documents", () => {
  it("indexes every supported type (sniffed from content) and retrieves the right chunk", async () => {
    const a = await signedInUser(t);
    const res = await upload(t, a.token, [...SAMPLES]);
    expect(res.statusCode).toBe(201);
    const created = res.json<{ documents: KnowledgeDocument[] }>().documents;
    expect(created.map((d) => d.name)).toEqual(SAMPLES.map((s) => s.name));
    expect(created.every((d) => d.status === "pending" || d.status === "processing")).toBe(true);
    // The first file also starts the reading thread (its libraries load once), on a loaded machine.
    const ready = await Promise.all(created.map((d) => settled(t, a.token, d.id, 60_000)));
    for (const [i, doc] of ready.entries()) {
      expect(doc, SAMPLES[i]?.name).toMatchObject({ status: "ready", kind: SAMPLES[i]?.kind, error_message: null });
      expect(doc.chunk_count).toBeGreaterThan(0);
      expect(doc.size_bytes).toBe(SAMPLES[i]?.data.length);
    }
    for (const [i, sample] of SAMPLES.entries()) {
      const found = await search(t, a.token, sample.question);
      expect(found.mode).toBe("keyword");
      expect(found.results[0]?.document_id, sample.question).toBe(ready[i]?.id);
      expect(found.results[0]?.text).toMatch(sample.expect);
    }
    // Headings stay with their text.
    const parking = await search(t, a.token, "garage");
    expect(parking.results[0]?.heading).toBe("Visiting us › Parking");

    const list = await call(t, "GET", "/api/v1/documents/list", { token: a.token });
    expect(list.json<KnowledgeDocument[]>()).toHaveLength(SAMPLES.length);

    const file = await call(t, "GET", `/api/v1/documents/${ready[1]?.id}/file`, { token: a.token });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(SAMPLES[1].data)).toBe(true);
  });

  it("fails a corrupt PDF clearly and stores no chunks", async () => {
    const a = await signedInUser(t);
    const corrupt = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(2000, 0x41)]);
    const res = await upload(t, a.token, [{ name: "broken.pdf", data: corrupt }]);
    expect(res.statusCode).toBe(201);
    const doc = await settled(t, a.token, res.json<{ documents: KnowledgeDocument[] }>().documents[0]?.id ?? "");
    expect(doc.status).toBe("failed");
    expect(doc.error_message).toMatch(/^The PDF could not be read/);
    expect(doc.chunk_count).toBe(0);
    expect((await search(t, a.token, "AAAA")).results).toEqual([]);
  });

  it("answers an oversized file with 413 and stores none of the request's files", async () => {
    const a = await signedInUser(t);
    const res = await upload(t, a.token, [
      { name: "small.txt", data: Buffer.from("fine") },
      { name: "huge.txt", data: Buffer.alloc(DOCUMENT_MAX_FILE_BYTES + 1, 0x61) },
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: "Each file must be 10 MB or smaller." });
    const list = await call(t, "GET", "/api/v1/documents/list", { token: a.token });
    expect(list.json()).toEqual([]);
  });

  it("refuses a file that is none of the supported types", async () => {
    const a = await signedInUser(t);
    const res = await upload(t, a.token, [
      { name: "doc.pdf", data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]) },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json<{ detail: string }>().detail).toMatch(/doc\.pdf: this file type is not supported/);
  });

  it("links documents to assistants, scopes search to them, and deletes", async () => {
    const a = await signedInUser(t);
    const agent = (await call(t, "POST", "/api/v1/agents", { token: a.token, body: { name: "Desk" } })).json<{
      id: string;
    }>();
    const res = await upload(t, a.token, [
      { name: "a.md", data: Buffer.from("# Lunch\n\nLunch is served at noon.") },
      { name: "b.md", data: Buffer.from("# Dinner\n\nDinner is served at seven.") },
    ]);
    const [first, second] = res.json<{ documents: KnowledgeDocument[] }>().documents;
    if (!first || !second) throw new Error("two documents expected");
    await settled(t, a.token, first.id);
    await settled(t, a.token, second.id);

    const link = await call(t, "POST", "/api/v1/documents/link-agent", {
      token: a.token,
      body: { agent_id: agent.id, document_id: first.id },
    });
    expect(link.json()).toEqual({ message: "Document linked." });
    expect((await call(t, "GET", `/api/v1/documents/${first.id}/agents`, { token: a.token })).json()).toEqual([
      { id: agent.id, name: "Desk" },
    ]);
    const linked = await call(t, "GET", `/api/v1/documents/agent/${agent.id}`, { token: a.token });
    expect(linked.json<KnowledgeDocument[]>().map((d) => d.id)).toEqual([first.id]);
    expect((await search(t, a.token, "served", agent.id)).results.map((r) => r.document_id)).toEqual([first.id]);
    expect((await search(t, a.token, "served")).results).toHaveLength(2);

    // Another workspace sees none of it.
    const b = await signedInUser(t);
    expect((await call(t, "GET", `/api/v1/documents/${first.id}`, { token: b.token })).statusCode).toBe(404);
    expect((await search(t, b.token, "served")).results).toEqual([]);
    const foreign = await call(t, "POST", "/api/v1/documents/link-agent", {
      token: b.token,
      body: { agent_id: agent.id, document_id: first.id },
    });
    expect(foreign.statusCode).toBe(404);

    await call(t, "POST", "/api/v1/documents/unlink-agent", {
      token: a.token,
      body: { agent_id: agent.id, document_id: first.id },
    });
    expect((await call(t, "GET", `/api/v1/documents/agent/${agent.id}`, { token: a.token })).json()).toEqual([]);

    const del = await call(t, "DELETE", `/api/v1/documents/${second.id}`, { token: a.token });
    expect(del.json()).toEqual({ message: "Document deleted." });
    expect((await search(t, a.token, "dinner")).results).toEqual([]);
    expect((await call(t, "DELETE", `/api/v1/documents/${second.id}`, { token: a.token })).statusCode).toBe(404);
  });
});

describe("document limits", () => {
  const ids = (res: Awaited<ReturnType<typeof upload>>) => res.json<{ documents: KnowledgeDocument[] }>().documents;

  it("fails a document that makes more chunks than one file may, and stores none", async () => {
    const a = await signedInUser(t);
    // A chunk never spans two sections: one line under each of 10,050 headings is 10,050 chunks.
    const sections = Array.from(
      { length: DOCUMENT_LIMITS.chunksPerDocument + 50 },
      (_, i) => `# Room ${i}\n\nDesk ${i}.`,
    );
    const [doc] = ids(await upload(t, a.token, [{ name: "rooms.md", data: Buffer.from(sections.join("\n\n")) }]));
    const failed = await settled(t, a.token, doc?.id ?? "", 60_000);
    expect(failed).toMatchObject({ status: "failed", error_code: "too_many_chunks", chunk_count: 0 });
    expect(failed.error_message).toBe(
      "The document makes 10,050 chunks; the knowledge base keeps at most 10,000 from one file. Split it into smaller files.",
    );
  });

  it("fails a document that would take the workspace past its chunks, keeping the others", async () => {
    const a = await signedInUser(t);
    const [first] = ids(
      await upload(t, a.token, [{ name: "first.md", data: Buffer.from("# Hours\n\nOpen at nine.") }]),
    );
    expect((await settled(t, a.token, first?.id ?? "")).status).toBe("ready");
    // The workspace is filled up to one chunk short of its limit.
    await t.ctx.db.execute(sql`
      insert into document_chunks (document_id, workspace_id, position, content)
      select ${first?.id}, ${a.workspaceId}, g, 'filler' from generate_series(1, ${DOCUMENT_LIMITS.chunksPerWorkspace - 2}) g`);
    const [second] = ids(
      await upload(t, a.token, [{ name: "second.md", data: Buffer.from("# A\n\nOne.\n\n# B\n\nTwo.") }]),
    );
    const failed = await settled(t, a.token, second?.id ?? "", 60_000);
    expect(failed).toMatchObject({ status: "failed", error_code: "workspace_full", chunk_count: 0 });
    expect(failed.error_message).toMatch(/^The workspace's knowledge base would pass its 50,000 chunks/);
    expect((await settled(t, a.token, first?.id ?? "")).status).toBe("ready");
    // It waits up to a minute for the second document: the test's own time must cover that wait.
  }, 120_000);

  it("gives up a document whose job stopped its process on every attempt, instead of starting it again", async () => {
    const a = await signedInUser(t);
    const [doc] = ids(await upload(t, a.token, [{ name: "notes.txt", data: Buffer.from("Read me.") }]));
    expect((await settled(t, a.token, doc?.id ?? "")).status).toBe("ready");
    // As a server killed while reading it leaves the job: running, its lock stale, its attempts spent.
    const [stale] = await t.ctx.db
      .insert(jobs)
      .values({
        queue: PROCESS_QUEUE,
        payload: { workspaceId: a.workspaceId, documentId: doc?.id },
        status: "running",
        attempts: 3,
        maxAttempts: 3,
        lockedAt: new Date(Date.now() - 10 * 60_000),
        lockedBy: "a process that died",
      })
      .returning();
    t.app.jobs.wake();
    const failed = await until(
      async () => (await call(t, "GET", `/api/v1/documents/${doc?.id}`, { token: a.token })).json<KnowledgeDocument>(),
      (d) => d.status === "failed",
      "the document to be given up",
    );
    expect(failed).toMatchObject({ error_code: "crashed", chunk_count: 0 });
    expect(failed.error_message).toMatch(/^Processing stopped unexpectedly on every attempt/);
    const [job] = await t.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, stale?.id ?? ""));
    expect(job).toMatchObject({ status: "failed", attempts: 4 });
  });
});
