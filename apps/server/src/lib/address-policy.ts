import { BlockList, isIP } from "node:net";

/**
 * Which network addresses outbound requests to user-given URLs may reach. Everything that is
 * not the public internet is refused by default (cloud metadata, the LAN, this machine), unless
 * the operator names it in PARLEY_ALLOWED_PRIVATE_HOSTS.
 */

type Family = "ipv4" | "ipv6";

const BLOCKED_RANGES: ReadonlyArray<[string, number, Family, string]> = [
  ["0.0.0.0", 8, "ipv4", "unspecified address"],
  ["10.0.0.0", 8, "ipv4", "private address"],
  ["100.64.0.0", 10, "ipv4", "shared (CGNAT) address"],
  ["127.0.0.0", 8, "ipv4", "loopback address"],
  ["169.254.0.0", 16, "ipv4", "link-local address"],
  ["172.16.0.0", 12, "ipv4", "private address"],
  ["192.0.0.0", 24, "ipv4", "reserved address"],
  // The documentation ranges (RFC 5737) are often routed inside labs and clouds: never the internet.
  ["192.0.2.0", 24, "ipv4", "documentation address"],
  ["192.88.99.0", 24, "ipv4", "6to4 relay address"],
  ["192.168.0.0", 16, "ipv4", "private address"],
  ["198.18.0.0", 15, "ipv4", "benchmarking address"],
  ["198.51.100.0", 24, "ipv4", "documentation address"],
  ["203.0.113.0", 24, "ipv4", "documentation address"],
  ["224.0.0.0", 4, "ipv4", "multicast address"],
  ["240.0.0.0", 4, "ipv4", "reserved address"],
  ["::", 128, "ipv6", "unspecified address"],
  ["::1", 128, "ipv6", "loopback address"],
  ["::ffff:0:0", 96, "ipv6", "IPv4-mapped IPv6 address"],
  ["64:ff9b::", 96, "ipv6", "IPv4-translated IPv6 address"],
  ["64:ff9b:1::", 48, "ipv6", "IPv4-translated IPv6 address"],
  ["100::", 64, "ipv6", "discard-only address"],
  // Protocol assignments: Teredo and benchmarking (2001:2::/48) tunnel to or stand for other networks.
  ["2001::", 23, "ipv6", "reserved address"],
  ["2001:db8::", 32, "ipv6", "documentation address"],
  // 6to4 carries an IPv4 address inside (2002:0a00:0001:: is 10.0.0.1).
  ["2002::", 16, "ipv6", "6to4 address"],
  ["3fff::", 20, "ipv6", "documentation address"],
  ["5f00::", 16, "ipv6", "segment-routing address"],
  ["fc00::", 7, "ipv6", "private address"],
  ["fe80::", 10, "ipv6", "link-local address"],
  ["fec0::", 10, "ipv6", "site-local address"],
  ["ff00::", 8, "ipv6", "multicast address"],
];

const familyOf = (address: string): Family | null => {
  const v = isIP(address);
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : null;
};

const blockLists = BLOCKED_RANGES.map(([network, prefix, family, reason]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, reason };
});

/** Why an address is not on the public internet, or null when it is. */
export function blockedReason(address: string): string | null {
  const family = familyOf(address);
  if (!family) return "not an IP address";
  // Only same-family ranges: an IPv4-mapped address is refused as such, whatever IPv4 it carries.
  for (const entry of blockLists) {
    if (entry.family === family && entry.list.check(address, family)) return entry.reason;
  }
  return null;
}

/** Strips the brackets URL.hostname keeps around IPv6 literals. */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i;

export type AllowedEntry =
  | { kind: "host"; host: string }
  | { kind: "cidr"; network: string; prefix: number; family: Family };

/** Parses one PARLEY_ALLOWED_PRIVATE_HOSTS entry (host name, IP address or CIDR range), or null when invalid. */
export function parseAllowedEntry(raw: string): AllowedEntry | null {
  const entry = raw.trim().toLowerCase();
  const [address = "", prefixText, extra] = bareHost(entry).split("/");
  const family = familyOf(bareHost(address));
  if (family) {
    if (extra !== undefined) return null;
    const max = family === "ipv4" ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || prefixText === "") return null;
    return { kind: "cidr", network: bareHost(address), prefix, family };
  }
  if (prefixText !== undefined || !HOST_NAME.test(entry)) return null;
  return { kind: "host", host: entry.replace(/\.$/, "") };
}

/** The operator's exceptions: host names reached whatever they resolve to, and address ranges. */
export class AllowList {
  private readonly hosts = new Set<string>();
  private readonly ranges = new BlockList();

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = parseAllowedEntry(raw);
      if (!entry)
        throw new Error(`PARLEY_ALLOWED_PRIVATE_HOSTS: "${raw}" is not a host name, IP address or CIDR range`);
      if (entry.kind === "host") this.hosts.add(entry.host);
      else this.ranges.addSubnet(entry.network, entry.prefix, entry.family);
    }
  }

  allowsHost(hostname: string): boolean {
    return this.hosts.has(bareHost(hostname).toLowerCase().replace(/\.$/, ""));
  }

  allowsAddress(address: string): boolean {
    const family = familyOf(address);
    return family !== null && this.ranges.check(address, family);
  }
}

/** Thrown when a request would reach an address the policy refuses. */
export class BlockedAddressError extends Error {
  readonly code = "ERR_PARLEY_BLOCKED_ADDRESS";
  constructor(host: string, address: string, reason: string) {
    const target = host === address ? address : `${host} (${address})`;
    super(`Refusing to connect to ${target}: ${reason}. Set PARLEY_ALLOWED_PRIVATE_HOSTS to allow it.`);
    this.name = "BlockedAddressError";
  }
}

/** Throws BlockedAddressError unless `address` (one that `host` resolved to) may be reached. */
export function assertAddressAllowed(allow: AllowList, host: string, address: string): void {
  if (allow.allowsHost(host) || allow.allowsAddress(address)) return;
  const reason = blockedReason(address);
  if (reason) throw new BlockedAddressError(bareHost(host), address, reason);
}
