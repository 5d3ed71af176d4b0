import { type Peer, parseUri } from "@parley/sip";
import { decryptSecrets, type PhoneNumberRecord } from "../phone-numbers/service.ts";
import { addressesOf, trunkHostPort } from "./allowed-peers.ts";
import { bindingOf } from "./registrations.ts";
import type { SipRuntime } from "./sip-runtime.ts";

/** How to reach a destination from one of the workspace's SIP numbers. */
export interface SipRoute {
  /** Request-URI (and REFER target). */
  uri: string;
  peer: Peer;
  /** Our From URI. */
  from: string;
  /** The caller ID a trunk's carrier presents (P-Asserted-Identity, RFC 3325); extensions have none. */
  assertedIdentity?: string | undefined;
  /** Digest credentials: the trunk's login, which is not the number in From. */
  credentials?: { username: string; password: string } | undefined;
}

/**
 * `destination` is a number or extension ("+14155550123", "1002"), or a SIP URI ("sip:desk@host"),
 * which a trunk sends to its carrier as it is and an extension reads as another extension's name.
 * A trunk number dials anything through its carrier (digest credentials when the trunk has them);
 * an extension dials another extension of its domain that is registered right now. Null when
 * there is no way there.
 *
 * A trunk call presents the number as the caller ID: From and P-Asserted-Identity carry the number
 * as stored (E.164 with its +, which carriers read as the international form), while a challenge
 * is answered with the trunk's username. Carriers that authenticate by login ignore From's user;
 * carriers that show caller ID read it (or PAI) and would otherwise show the login.
 */
export async function routeFor(
  runtime: SipRuntime,
  record: PhoneNumberRecord,
  destination: string,
): Promise<SipRoute | null> {
  const { ctx } = runtime;
  const asUri = /^sips?:/i.test(destination) ? parseUri(destination) : null;
  if (record.provider === "sip_trunk" && record.sipTrunk) {
    const { host, port } = trunkHostPort(record.sipTrunk);
    const [address] = await addressesOf(host);
    if (!address) return null;
    const password = decryptSecrets(ctx, record).sipPassword;
    const { username } = record.sipTrunk;
    return {
      uri: asUri ? destination : `sip:${destination}@${host}${port === 5060 ? "" : `:${port}`}`,
      peer: { transport: record.sipTrunk.transport, address, port },
      from: `sip:${record.number}@${host}`,
      assertedIdentity: `sip:${record.number}@${host}`,
      credentials: username && password ? { username, password } : undefined,
    };
  }
  if (record.provider === "extension" && record.extensionDomain) {
    const user = asUri ? asUri.user : destination;
    if (!user) return null;
    const binding = await bindingOf(ctx.db, user, record.extensionDomain, ctx.now());
    if (!binding) return null;
    return {
      uri: binding.contact,
      peer: binding.source,
      from: `sip:${record.sipUsername ?? record.number}@${record.extensionDomain}`,
    };
  }
  return null;
}
