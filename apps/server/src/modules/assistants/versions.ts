import type { AssistantFields, AssistantVersion, AssistantVersionSummary } from "@parley/contract";
import { desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { findUsersByIds } from "../users/service.ts";
import { type AgentRow, type AssistantVersionRow, agents, assistantVersions } from "./schema.ts";
import { configOf, FIELD_DEFAULTS, toAssistant } from "./service.ts";
import { readVersionLinks } from "./version-links.ts";

/** Who publishes and why: the note is shown in the history, the author is the signed-in user (none for the migration). */
export interface PublishNote {
  note: string;
  authorId: string | null;
  /** Keep the editor's pending draft (a rollback or a promoted experiment version): it was not what got published. */
  keepDraft?: boolean;
}

function summaryOf(row: AssistantVersionRow, publishedVersion: number, authorName: string | null) {
  return {
    number: row.number,
    note: row.note,
    author_id: row.authorId,
    author_name: authorName,
    created_at: row.createdAt.toISOString(),
    published: row.number === publishedVersion,
  } satisfies AssistantVersionSummary;
}

/** The authors' names by id (the email of one who gave no name); a deleted account is left out. */
async function authorNames(db: Executor, rows: AssistantVersionRow[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.authorId ? [row.authorId] : [])))];
  const users = await findUsersByIds(db, ids);
  return new Map(users.map((user) => [user.id, user.name.trim() || user.email]));
}

const authorOf = (names: Map<string, string>, row: AssistantVersionRow) =>
  (row.authorId ? names.get(row.authorId) : undefined) ?? null;

/** One version as the API shows it, its author's name looked up. */
export async function versionOf(db: Executor, row: AssistantVersionRow, publishedVersion: number) {
  const names = await authorNames(db, [row]);
  return toVersion(row, publishedVersion, authorOf(names, row));
}

/** A stored config read with today's defaults under it, so a field added since reads as its default. */
export function withDefaults(config: AssistantFields): AssistantFields {
  return { ...FIELD_DEFAULTS, ...config };
}

/** `authorName`: versionOf looks it up; callers that read only the configuration leave it out. */
export function toVersion(
  row: AssistantVersionRow,
  publishedVersion: number,
  authorName: string | null = null,
): AssistantVersion {
  const { name, ...fields } = withDefaults(row.config);
  const config = configOf(
    toAssistant({
      id: row.agentId,
      workspaceId: row.workspaceId,
      name,
      temp: false,
      config: fields,
      publishedVersion,
      draft: null,
      createdAt: row.createdAt,
      updatedAt: row.createdAt,
    }),
  );
  return { ...summaryOf(row, publishedVersion, authorName), config, links: row.links };
}

/** The assistant's versions, newest first (config left out: the history lists them). */
export async function listVersions(db: Executor, tenant: TenantScope, agent: AgentRow) {
  const rows = await db
    .select()
    .from(assistantVersions)
    .where(scoped(assistantVersions, tenant).where(eq(assistantVersions.agentId, agent.id)))
    .orderBy(desc(assistantVersions.number));
  const names = await authorNames(db, rows);
  return rows.map((row) => summaryOf(row, agent.publishedVersion, authorOf(names, row)));
}

export async function findVersionRow(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  number: number,
): Promise<AssistantVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(assistantVersions)
    .where(
      scoped(assistantVersions, tenant).where(
        eq(assistantVersions.agentId, agentId),
        eq(assistantVersions.number, number),
      ),
    );
  return row;
}

export async function requireVersionRow(db: Executor, tenant: TenantScope, agentId: string, number: number) {
  return found(await findVersionRow(db, tenant, agentId, number), "Version not found.");
}

/**
 * Publishes a configuration: the assistants row (what every call path reads) takes it with the next
 * number, the draft is cleared, and the version is written, in one transaction. The row's update
 * takes its lock first, so two publishes at once get consecutive numbers. Returns the new row.
 */
export async function publishConfig(
  db: Executor,
  tenant: TenantScope,
  agentId: string,
  fields: AssistantFields,
  note: PublishNote,
  now: Date,
): Promise<AgentRow> {
  const { name, ...config } = fields;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(agents)
      .set({
        name,
        config,
        draft: note.keepDraft ? sql`${agents.draft}` : null,
        publishedVersion: sql`${agents.publishedVersion} + 1`,
        updatedAt: now,
      })
      .where(scoped(agents, tenant).where(eq(agents.id, agentId)))
      .returning();
    const published = found(row, "Assistant not found.");
    const links = await readVersionLinks(tx, tenant, agentId);
    await tx.insert(assistantVersions).values(
      scoped(assistantVersions, tenant).values({
        agentId,
        number: published.publishedVersion,
        config: fields,
        links,
        note: note.note,
        authorId: note.authorId,
        createdAt: now,
      }),
    );
    return published;
  });
}

/** Version 1 of a new assistant: the configuration it was created with. */
export async function writeFirstVersion(
  db: Executor,
  tenant: TenantScope,
  row: AgentRow,
  authorId: string | null,
): Promise<void> {
  await db.insert(assistantVersions).values(
    scoped(assistantVersions, tenant).values({
      agentId: row.id,
      number: row.publishedVersion,
      config: { ...row.config, name: row.name },
      links: await readVersionLinks(db, tenant, row.id),
      note: "Created",
      authorId,
      createdAt: row.createdAt,
    }),
  );
}
