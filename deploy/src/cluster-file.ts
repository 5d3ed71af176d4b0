import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * The one small file a deployment is described by (deploy/nodes.example.json): where the public
 * entry points are and which Parley processes ("nodes") serve behind them. Every config of the
 * reference deployment — HAProxy, Kamailio's dispatcher, the systemd units and each node's
 * environment — is rendered from it, so adding a node is one line here and a re-render.
 */

/** The same pattern the server accepts for NODE_ID (packages/contract NODE_ID_PATTERN). */
const NODE_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
const port = z.number().int().min(1).max(65535);
/** An address the configs can name: an IPv4 address or a host name (Kamailio and HAProxy resolve it once). */
const host = z
  .string()
  .trim()
  .min(1)
  .regex(/^[A-Za-z0-9.-]+$/, "must be an IPv4 address or a host name");

export const ClusterNode = z
  .object({
    id: z.string().regex(NODE_ID, "must be lower-case letters, digits and dashes (at most 32), like node-1"),
    host,
    http_port: port,
    sip_port: port.nullable().default(null),
    rtp_ports: z.tuple([port, port]).refine(([min, max]) => min <= max, "the first port must not be above the second"),
  })
  .strict();
export type ClusterNode = z.infer<typeof ClusterNode>;

export const ClusterFile = z
  .object({
    /** What browsers and carriers use; every node's PUBLIC_URL. */
    public_url: z.url({ protocol: /^https?$/ }),
    /** Where HAProxy listens for HTTP and WebSocket (TLS, when used, is terminated in front or in HAProxy). */
    balancer: z.object({ host, http_port: port }).strict(),
    /** Where Kamailio listens for SIP (UDP and TCP); null for a deployment without SIP. */
    sip: z.object({ host, port }).strict().nullable().default(null),
    /** How long a stopping node lets its calls run (the server's DRAIN_TIMEOUT), in seconds. */
    drain_timeout_seconds: z.number().int().min(0).default(600),
    nodes: z.array(ClusterNode).min(1),
  })
  .strict()
  .superRefine((file, check) => {
    const seen = new Set<string>();
    file.nodes.forEach((node, i) => {
      if (seen.has(node.id))
        check.addIssue({ code: "custom", path: ["nodes", i, "id"], message: `"${node.id}" is listed twice` });
      seen.add(node.id);
      if (file.sip && node.sip_port === null)
        check.addIssue({
          code: "custom",
          path: ["nodes", i, "sip_port"],
          message: "is needed when the file has a sip section",
        });
    });
    // Nodes on one host must not share a port: the second process could not bind it.
    const taken = new Map<string, string>();
    file.nodes.forEach((node, i) => {
      const claims: [string, string][] = [[`tcp:${node.host}:${node.http_port}`, "http_port"]];
      if (node.sip_port !== null) claims.push([`udp:${node.host}:${node.sip_port}`, "sip_port"]);
      for (const [key, field] of claims) {
        const owner = taken.get(key);
        if (owner)
          check.addIssue({
            code: "custom",
            path: ["nodes", i, field],
            message: `is already used by ${owner} on ${node.host}`,
          });
        else taken.set(key, node.id);
      }
      for (const [j, other] of file.nodes.entries()) {
        if (j >= i || other.host !== node.host) continue;
        const [a, b] = node.rtp_ports;
        const [c, d] = other.rtp_ports;
        if (a <= d && c <= b)
          check.addIssue({
            code: "custom",
            path: ["nodes", i, "rtp_ports"],
            message: `overlaps ${other.id}'s range on ${node.host}`,
          });
      }
    });
  });
export type ClusterFile = z.infer<typeof ClusterFile>;

/** Parses a nodes file's content; throws one message listing every problem with its JSON path. */
export function parseClusterFile(text: string, source = "nodes file"): ClusterFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ClusterFile.safeParse(json);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join(".") || "(file)"}: ${issue.message}`);
  throw new Error(`${source} is not a valid cluster description:\n${lines.join("\n")}`);
}

export function readClusterFile(file: string): ClusterFile {
  return parseClusterFile(readFileSync(file, "utf8"), file);
}
