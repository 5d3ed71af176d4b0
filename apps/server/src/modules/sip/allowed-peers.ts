import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import type { SipTrunkSettings } from "@parley/contract";

/** A trunk as stored on its number (the password lives apart, sealed). */
type StoredSipTrunk = Omit<SipTrunkSettings, "password">;

/** The trunk's host without its port ("sip.carrier.com:5080" → "sip.carrier.com"). */
export function trunkHostPort(settings: Pick<StoredSipTrunk, "sip_host">): { host: string; port: number } {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(settings.sip_host.trim());
  return { host: match?.[1] ?? settings.sip_host, port: match?.[2] ? Number(match[2]) : 5060 };
}

/** The IP addresses a host name resolves to (itself when it is an address). */
export async function addressesOf(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  try {
    return (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

/** Whether an address matches one of a trunk's allowed_ips entries (an address or a CIDR block). */
export function addressAllowed(address: string, entries: readonly string[]): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? "ipv4" : "ipv6";
  const list = new BlockList();
  for (const entry of entries) {
    const [ip, bits] = entry.split("/");
    if (!ip || isIP(ip) !== family) continue;
    if (bits === undefined) list.addAddress(ip, type);
    else list.addSubnet(ip, Number(bits), type);
  }
  return list.check(address, type);
}

/**
 * Whether an INVITE from `address` comes from the trunk: its allowed_ips, or — for a trunk Parley
 * registers to — the carrier's own server.
 */
export async function fromTrunk(address: string, settings: StoredSipTrunk): Promise<boolean> {
  if (addressAllowed(address, settings.allowed_ips)) return true;
  if (!settings.register) return false;
  return (await addressesOf(trunkHostPort(settings).host)).includes(address);
}
