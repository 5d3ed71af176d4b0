import type { ClusterNode } from "@parley/contract";

/**
 * What the admin node list says of a node: its own state, except that a node whose heartbeat has
 * stopped (alive false) while its row still says ready or draining is "not responding" — it was
 * lost (killed, crashed, cut off) rather than stopped.
 */
export type NodeStatus = "ready" | "draining" | "stopped" | "notResponding";

export function nodeStatus(node: Pick<ClusterNode, "state" | "alive">): NodeStatus {
  if (node.state === "stopped") return "stopped";
  return node.alive ? node.state : "notResponding";
}

/** The chip colour of each status: green takes calls, amber is leaving, red needs a look. */
export const STATUS_COLOR = {
  ready: "success",
  draining: "warning",
  stopped: "default",
  notResponding: "error",
} as const satisfies Record<NodeStatus, "success" | "warning" | "default" | "error">;

/** Where the node listens: host and HTTP port, as a load balancer's server line names it. */
export const nodeAddress = (node: Pick<ClusterNode, "host" | "http_port">) => `${node.host}:${node.http_port}`;

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/**
 * How long ago `iso` was at `now`, in `language` ("5 seconds ago", "vor 2 Minuten"), in the largest
 * whole unit. A heartbeat a little ahead of this browser's clock reads as "now", not "in 1 second".
 */
export function timeAgo(iso: string, now: number, language: string): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  for (const [unit, size] of UNITS) if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  return format.format(-seconds, "second");
}
