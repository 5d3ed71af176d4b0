import type { AssistantFields, AssistantVersion, AssistantVersionSummary } from "@parley/contract";
import { desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
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

function summaryOf(row: AssistantVersionRow, publishedVersion: number): AssistantVersionSummary {
  return {
    number: row.number,
    note: row.note,
    author_id: row.authorId,
    created_at: row.createdAt.toISOString(),
    published: row.number === publishedVersion,
  };
}

/** A stored config read with today's defaults under it, so a field added since reads as its default. */
export function withDefaults(config: AssistantFields): AssistantFields {
  return { ...FIELD_DEFAULTS, ...config };
}

export function toVersion(row: AssistantVersionRow, publishedVersion: number): AssistantVersion {
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
  return { ...summaryOf(row, publishedVersion), config, links: row.links };
}

/** The assistant's versions, newest first (config left out: the history lists them). */
export async function listVersions(db: Executor, tenant: TenantScope, agent: AgentRow) {
  const rows = await db
    .select()
    .from(assistantVersions)
    .where(scoped(assistantVersions, tenant).where(eq(assistantVersions.agentId, agent.id)))
    .orderBy(desc(assistantVersions.number));
  return rows.map((row) => summaryOf(row, agent.publishedVersion));
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
