import { type ClusterNode, NODE_DEAD_AFTER_MS } from "@parley/contract";
import { asc, lt } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type ClusterNodeRow, clusterNodes } from "./schema.ts";

/** A node's row as its own heartbeat writes it. */
export type NodeReport = Omit<ClusterNodeRow, "heartbeatAt">;

/** Rows of nodes gone for this long are forgotten (a node renamed, a host retired). */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

export async function writeNodeReport(db: Executor, report: NodeReport, now: Date): Promise<void> {
  const { id, ...rest } = report;
  await db
    .insert(clusterNodes)
    .values({ ...report, heartbeatAt: now })
    .onConflictDoUpdate({ target: clusterNodes.id, set: { ...rest, heartbeatAt: now } });
}

export async function forgetOldNodes(db: Executor, now: Date): Promise<void> {
  await db.delete(clusterNodes).where(lt(clusterNodes.heartbeatAt, new Date(now.getTime() - FORGET_AFTER_MS)));
}

export async function listNodes(db: Executor, now: Date): Promise<ClusterNode[]> {
  const rows = await db.select().from(clusterNodes).orderBy(asc(clusterNodes.id));
  return rows.map((row) => ({
    id: row.id,
    state: row.state,
    alive: row.state !== "stopped" && now.getTime() - row.heartbeatAt.getTime() < NODE_DEAD_AFTER_MS,
    active_calls: row.activeCalls,
    version: row.version,
    host: row.host,
    http_port: row.httpPort,
    sip_port: row.sipPort,
    started_at: row.startedAt.toISOString(),
    heartbeat_at: row.heartbeatAt.toISOString(),
  }));
}
