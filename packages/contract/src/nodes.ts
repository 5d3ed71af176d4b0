import { z } from "zod";

/**
 * The server processes ("nodes") that serve one database, as the readiness probes, the admin area
 * and the load balancers in front (deploy/) see them.
 */

/** A node's id (NODE_ID): the load balancers' server name and the routing key in socket URLs. */
export const NODE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * ready: takes new calls. draining: stopping (SIGTERM); its running calls go on until they end or
 * DRAIN_TIMEOUT, new ones go elsewhere. stopped: it left cleanly.
 */
export const NodeState = z.enum(["ready", "draining", "stopped"]);
export type NodeState = z.infer<typeof NodeState>;

/** How often each node writes its heartbeat; a node silent for NODE_DEAD_AFTER_MS is shown as lost. */
export const NODE_HEARTBEAT_MS = 5_000;
export const NODE_DEAD_AFTER_MS = 20_000;

export const ClusterNode = z.object({
  id: z.string(),
  state: NodeState,
  /** A heartbeat within NODE_DEAD_AFTER_MS (a stopped node is never alive). */
  alive: z.boolean(),
  /** Calls (rooms) this node runs, as of its last heartbeat. */
  active_calls: z.number().int(),
  version: z.string(),
  /** The host name the process runs on and its HTTP port; the SIP port when SIP is on. */
  host: z.string(),
  http_port: z.number().int(),
  sip_port: z.number().int().nullable(),
  started_at: z.iso.datetime(),
  heartbeat_at: z.iso.datetime(),
});
export type ClusterNode = z.infer<typeof ClusterNode>;

export const AdminNodesResponse = z.object({ nodes: z.array(ClusterNode) });
export type AdminNodesResponse = z.infer<typeof AdminNodesResponse>;

/** GET /api/v1/health/live: the process answers (a liveness probe restarts it otherwise). */
export const LivenessResponse = z.object({
  status: z.literal("alive"),
  node: z.string(),
  uptime_seconds: z.number(),
});

/**
 * GET /api/v1/health/ready: 200 while the node should get new calls; 503 while it drains or cannot
 * reach its database (load balancers take it out of rotation).
 */
export const ReadinessResponse = z.object({
  /** busy: the node is too saturated to take another call now (admission control); it comes back by itself. */
  status: z.enum(["ready", "busy", "draining", "unready"]),
  node: z.string(),
  database: z.enum(["ok", "unreachable"]),
  active_calls: z.number().int(),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;

/**
 * A socket path with the node's routing key appended (`/api/v1/realtime/node-2`), so a load
 * balancer sends the socket to the node that holds the call. No key (one process): the bare path.
 */
export function routedSocketPath(path: string, node: string | null): string {
  return node ? `${path}/${node}` : path;
}
