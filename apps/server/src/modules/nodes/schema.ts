import type { NodeState } from "@parley/contract";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per server process (node) serving this database, written by the node itself: what the
 * admin area's node list shows, and where an operator sees a node that stopped answering.
 */
export const clusterNodes = pgTable("cluster_nodes", {
  /** NODE_ID, or the host name and port. */
  id: text("id").primaryKey(),
  state: text("state").$type<NodeState>().notNull(),
  activeCalls: integer("active_calls").notNull().default(0),
  version: text("version").notNull(),
  host: text("host").notNull(),
  httpPort: integer("http_port").notNull(),
  sipPort: integer("sip_port"),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull(),
});

export type ClusterNodeRow = typeof clusterNodes.$inferSelect;
