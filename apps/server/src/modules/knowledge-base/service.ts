import type { DocumentAgent, KnowledgeDocument } from "@parley/contract";
import { count, desc, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { newestFirst } from "../../lib/paging.ts";
import { deleteRow, findRow, listRows } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { assistantLinks } from "../assistants/assistant-links.ts";
import { listAssistants, requireAgent } from "../assistants/service.ts";
import { type DocumentRow, documentAgents, documentFiles, documents, hexOfBytea } from "./schema.ts";

export type { DocumentRow };

export const DOCUMENT_NOT_FOUND = "Document not found.";

export function toDocument(row: DocumentRow, agents: DocumentAgent[]): KnowledgeDocument {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    status: row.status,
    error_message: row.errorMessage,
    error_code: row.status === "failed" ? (row.errorCode ?? "unreadable") : null,
    size_bytes: row.sizeBytes,
    chunk_count: row.chunkCount,
    url: row.url,
    intensity: row.intensity,
    pages_done: row.pagesDone,
    pages_found: row.pagesFound,
    agents,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The linked assistants of each document, by document id, with their names (from the assistants service). */
async function agentsByDocument(
  db: Executor,
  tenant: TenantScope,
  ids: string[],
): Promise<Map<string, DocumentAgent[]>> {
  const byDocument = new Map<string, DocumentAgent[]>();
  if (ids.length === 0) return byDocument;
  const links = await db.select().from(documentAgents).where(inArray(documentAgents.documentId, ids));
  if (links.length === 0) return byDocument;
  const names = new Map((await listAssistants(db, tenant)).map((a) => [a.id, a.name]));
  for (const link of links) {
    const name = names.get(link.agentId);
    if (name === undefined) continue;
    const list = byDocument.get(link.documentId) ?? [];
    list.push({ id: link.agentId, name });
    byDocument.set(link.documentId, list);
  }
  return byDocument;
}

/** Rows as the API shows them, linked assistants included. */
export async function withAgents(db: Executor, tenant: TenantScope, rows: DocumentRow[]): Promise<KnowledgeDocument[]> {
  const agents = await agentsByDocument(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toDocument(row, agents.get(row.id) ?? []));
}

export async function oneWithAgents(db: Executor, tenant: TenantScope, row: DocumentRow): Promise<KnowledgeDocument> {
  return toDocument(row, (await agentsByDocument(db, tenant, [row.id])).get(row.id) ?? []);
}

export async function listDocuments(db: Executor, tenant: TenantScope): Promise<DocumentRow[]> {
  return listRows(db, documents, tenant, newestFirst(documents));
}

export async function findDocument(db: Executor, tenant: TenantScope, id: string): Promise<DocumentRow | undefined> {
  return findRow(db, documents, tenant, id);
}

export async function requireDocument(db: Executor, tenant: TenantScope, id: string): Promise<DocumentRow> {
  return found(await findDocument(db, tenant, id), DOCUMENT_NOT_FOUND);
}

export async function documentFile(db: Executor, tenant: TenantScope, id: string): Promise<Buffer | undefined> {
  const [row] = await db
    .select({ hex: hexOfBytea(documentFiles.data) })
    .from(documentFiles)
    .where(scoped(documentFiles, tenant).where(eq(documentFiles.documentId, id)));
  return row ? Buffer.from(row.hex, "hex") : undefined;
}

export async function updateDocument(db: Executor, tenant: TenantScope, id: string, changes: Partial<DocumentRow>) {
  await db
    .update(documents)
    .set({ ...changes, updatedAt: new Date() })
    .where(scoped(documents, tenant).where(eq(documents.id, id)));
}

export async function deleteDocument(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  await deleteRow(db, documents, tenant, id, DOCUMENT_NOT_FOUND);
}

const documentLinks = assistantLinks(documentAgents, "documentId", documents, requireDocument);

/** The documents linked to an assistant of the workspace. */
export async function listAgentDocuments(db: Executor, tenant: TenantScope, agentId: string): Promise<DocumentRow[]> {
  await requireAgent(db, tenant, agentId);
  return documentLinks.linkedTo(db, tenant, agentId, [desc(documents.createdAt)]);
}

/** Whether the assistant has any document to search (decides whether a call gets the search tool). */
export async function agentHasDocuments(db: Executor, tenant: TenantScope, agentId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(documentAgents)
    .innerJoin(documents, eq(documents.id, documentAgents.documentId))
    .where(scoped(documents, tenant).where(eq(documentAgents.agentId, agentId)));
  return (row?.n ?? 0) > 0;
}

export async function documentAgentsOf(db: Executor, tenant: TenantScope, id: string): Promise<DocumentAgent[]> {
  await requireDocument(db, tenant, id);
  return (await agentsByDocument(db, tenant, [id])).get(id) ?? [];
}

export const linkDocument = documentLinks.link;
export const unlinkDocument = documentLinks.unlink;
