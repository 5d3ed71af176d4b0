import type { CrawlUrlBody, DocumentKind } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { enqueueJob, type JobRunner } from "../../jobs/runner.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { crawlName } from "./crawl-name.ts";
import { PROCESS_QUEUE } from "./processing.ts";
import { byteaFromHex, type DocumentRow, documentFiles, documents } from "./schema.ts";
import { requireDocument, updateDocument } from "./service.ts";
import type { UploadedFile } from "./upload.ts";

/** Stores the files and queues their processing, all in one transaction. */
export async function addUploads(db: Database, jobs: JobRunner, tenant: TenantScope, files: UploadedFile[]) {
  const rows = await db.transaction(async (tx) => {
    const created: DocumentRow[] = [];
    for (const file of files) {
      const [row] = await tx
        .insert(documents)
        .values(
          scoped(documents, tenant).values({ name: file.name, sizeBytes: file.data.length, mimeType: file.mimeType }),
        )
        .returning();
      if (!row) throw new Error("insert into documents returned no row");
      await tx
        .insert(documentFiles)
        .values(scoped(documentFiles, tenant).values({ documentId: row.id, data: byteaFromHex(file.data) }));
      await enqueueJob(tx, PROCESS_QUEUE, { workspaceId: tenant.workspaceId, documentId: row.id });
      created.push(row);
    }
    return created;
  });
  jobs.wake();
  return rows;
}

const WEB: DocumentKind = "web";

/** `base`, or `base (2)`, `base (3)`… when the workspace already has a document of that name. */
async function unusedName(tx: Executor, tenant: TenantScope, base: string): Promise<string> {
  const rows = await tx
    .select({ name: documents.name })
    .from(documents)
    .where(scoped(documents, tenant).where(sql`left(${documents.name}, ${Array.from(base).length}) = ${base}`));
  const taken = new Set(rows.map((row) => row.name));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base} (${n})`)) n += 1;
  return `${base} (${n})`;
}

export async function addCrawl(db: Database, jobs: JobRunner, tenant: TenantScope, body: CrawlUrlBody) {
  const url = new URL(body.url);
  const row = await db.transaction(async (tx) => {
    const name = await unusedName(tx, tenant, crawlName(url));
    const [created] = await tx
      .insert(documents)
      .values(
        scoped(documents, tenant).values({
          name,
          kind: WEB,
          url: url.href,
          intensity: body.intensity,
          pagesFound: 1,
        }),
      )
      .returning();
    if (!created) throw new Error("insert into documents returned no row");
    await enqueueJob(tx, PROCESS_QUEUE, { workspaceId: tenant.workspaceId, documentId: created.id });
    return created;
  });
  jobs.wake();
  return row;
}

/** Reads the document again (a site is re-crawled); its chunks are swapped in one go when done. */
export async function refreshDocument(db: Database, jobs: JobRunner, tenant: TenantScope, id: string) {
  await requireDocument(db, tenant, id);
  // The answer is the document as queued: read inside the transaction, since once the runner is
  // woken the job may already have moved it on to "processing".
  const queued = await db.transaction(async (tx) => {
    await updateDocument(tx, tenant, id, { status: "pending", errorMessage: null, pagesDone: 0 });
    await enqueueJob(tx, PROCESS_QUEUE, { workspaceId: tenant.workspaceId, documentId: id });
    return requireDocument(tx, tenant, id);
  });
  jobs.wake();
  return queued;
}
