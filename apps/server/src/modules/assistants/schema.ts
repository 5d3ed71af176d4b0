import type { AssistantFields, ExperimentChannel, ExperimentStatus, VersionLinks } from "@parley/contract";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, timestamps } from "../../lib/table-columns.ts";
import { workspaceIdColumn, workspaceRecordKey } from "../workspaces/owned-columns.ts";

/**
 * Assistants ("agents"). The name is a column (listing, search); every other field of spec §3
 * lives in `config`, validated by the contract's AssistantFields on the way in, so adding a
 * behaviour field needs no migration. The row is the PUBLISHED configuration (issue 30): every
 * call path reads it as before; the editor's unpublished changes wait in `draft`.
 */
export const agents = pgTable(
  "agents",
  {
    ...workspaceRecordKey(),
    name: text("name").notNull(),
    temp: boolean("temp").notNull().default(false),
    config: jsonb("config").$type<Omit<AssistantFields, "name">>().notNull(),
    /** The version the row holds (assistant_versions.number). */
    publishedVersion: integer("published_version").notNull().default(1),
    /** The editor's configuration (name included) while it differs from the published one; null otherwise. */
    draft: jsonb("draft").$type<AssistantFields>(),
    ...timestamps(),
  },
  (t) => [index("agents_workspace_idx").on(t.workspaceId, t.createdAt)],
);

/** Every publish of an assistant, numbered from 1; never changed once written. */
export const assistantVersions = pgTable(
  "assistant_versions",
  {
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    /** Repeats the assistant's workspace so every read is scoped like any other table. */
    workspaceId: workspaceIdColumn(),
    number: integer("number").notNull(),
    /** The whole configuration, name included, as it was published. */
    config: jsonb("config").$type<AssistantFields>().notNull(),
    links: jsonb("links").$type<VersionLinks>().notNull().default({}),
    note: text("note").notNull().default(""),
    /** Who published it; null for versions written by the migration. No foreign key: a departed user's versions stay. */
    authorId: uuid("author_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.number] })],
);

/**
 * The version each call runs, chosen when its room opens (an experiment may pick one other than the
 * published) and read when its session starts, possibly on another node.
 */
export const callVersions = pgTable(
  "call_versions",
  {
    callId: uuid("call_id").primaryKey(),
    workspaceId: workspaceIdColumn(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    experimentId: uuid("experiment_id"),
    variantId: uuid("variant_id"),
    createdAt: createdAt(),
  },
  (t) => [index("call_versions_agent_idx").on(t.workspaceId, t.agentId, t.version)],
);

/**
 * Experiments (issue 30): an assistant's calls split between its versions by percentage. At most one
 * experiment per assistant is running or paused (a unique partial index in the migration), so a call
 * picks from one split.
 */
export const experiments = pgTable(
  "experiments",
  {
    ...workspaceRecordKey(),
    agentId: uuid("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    channel: text("channel").$type<ExperimentChannel>().notNull(),
    status: text("status").$type<ExperimentStatus>().notNull().default("draft"),
    /** The version promoted when the experiment ended with a winner. */
    winnerVersion: integer("winner_version"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index("experiments_agent_idx").on(t.workspaceId, t.agentId, t.createdAt)],
);

/** The versions an experiment splits between; fixed once written, so a caller's variant never moves. */
export const experimentVariants = pgTable(
  "experiment_variants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    experimentId: uuid("experiment_id")
      .notNull()
      .references(() => experiments.id, { onDelete: "cascade" }),
    workspaceId: workspaceIdColumn(),
    /** The order they were given in: buckets are handed out in it, and results compare with the first. */
    position: integer("position").notNull(),
    version: integer("version").notNull(),
    percent: integer("percent").notNull(),
  },
  (t) => [index("experiment_variants_experiment_idx").on(t.experimentId, t.position)],
);

export type AgentRow = typeof agents.$inferSelect;
export type AssistantVersionRow = typeof assistantVersions.$inferSelect;
export type ExperimentRow = typeof experiments.$inferSelect;
export type ExperimentVariantRow = typeof experimentVariants.$inferSelect;
