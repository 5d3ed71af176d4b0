import type { Binding, IncomingRequest, Peer } from "@parley/sip";
import { addressAllowed } from "./allowed-peers.ts";

/** The header a trusted SIP proxy (deploy/: Kamailio) sets to the caller's `<proto>:<ip>:<port>`. */
const ORIGIN_HEADER = "x-parley-source";

function parseOrigin(value: string): Peer | null {
  const first = value.indexOf(":");
  const last = value.lastIndexOf(":");
  if (first <= 0 || last <= first) return null;
  const transport = value.slice(0, first).toLowerCase();
  const address = value.slice(first + 1, last).replace(/^\[|\]$/g, "");
  const port = Number(value.slice(last + 1));
  if ((transport !== "udp" && transport !== "tcp") || !address || !Number.isInteger(port) || port <= 0 || port > 65535)
    return null;
  return { transport, address, port };
}

/**
 * Where a SIP request really came from: the transport's peer, unless that peer is one of the
 * SIP_TRUSTED_PROXIES, which name the caller in X-Parley-Source (and drop any copy the caller
 * sent, so it cannot be forged). A header from anyone else is ignored.
 */
export function requestOrigin(request: IncomingRequest, trustedProxies: readonly string[]): Peer {
  if (trustedProxies.length === 0 || !addressAllowed(request.from.address, trustedProxies)) return request.from;
  const header = request.message.headers.get(ORIGIN_HEADER);
  return (header && parseOrigin(header.trim())) || request.from;
}

/**
 * Where a phone registered from, for the REGISTER rate limit's "already registered from here"
 * exemption: the binding's source, or behind a trusted proxy (which is every binding's source
 * then) the host of the Contact the phone registered.
 */
export function bindingOrigin(binding: Binding, trustedProxies: readonly string[]): string {
  if (!addressAllowed(binding.source.address, trustedProxies)) return binding.source.address;
  return /^<?sips?:(?:[^@]*@)?\[?([^\]:;>]+)/i.exec(binding.contact)?.[1] ?? binding.source.address;
}
