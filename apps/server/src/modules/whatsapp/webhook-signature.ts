import type { CallingAdapter, CallingEvent } from "@parley/engine/webrtc";
import type { AppContext } from "../../context.ts";
import { decryptSecrets, findInboundNumbers, type PhoneNumberRecord } from "../phone-numbers/service.ts";
import { PROVIDER, platformSettings } from "./vendor.ts";

/** A number a signed webhook is for, with its token opened. */
export interface SignedNumber {
  record: PhoneNumberRecord;
  accessToken: string;
}

export type SignedWebhook = { ok: false } | { ok: true; events: CallingEvent[]; numbers: SignedNumber[] };

function eventsOf(adapter: CallingAdapter, rawBody: string): CallingEvent[] {
  try {
    return adapter.parseWebhook(rawBody);
  } catch {
    return [];
  }
}

/**
 * Checks X-Hub-Signature-256 of a webhook: the numbers it names are looked up across workspaces and
 * it is genuine when signed with one of their app secrets or the server-wide one. The numbers
 * whose secret (or the server-wide secret, for numbers without their own) signed it are the ones
 * its events may act on, so one workspace's secret cannot drive another's number.
 */
export async function verifyWebhook(
  ctx: AppContext,
  adapter: CallingAdapter,
  rawBody: string,
  signature: string | undefined,
): Promise<SignedWebhook> {
  const events = eventsOf(adapter, rawBody);
  const serverSecret = platformSettings(ctx).appSecret;
  const signedByServer = serverSecret !== undefined && adapter.verifySignature(rawBody, signature, serverSecret);
  const numbers: SignedNumber[] = [];
  const seen = new Set<string>();
  for (const event of events) {
    for (const record of await findInboundNumbers(ctx.db, PROVIDER, event.businessNumber)) {
      if (seen.has(record.id) || record.whatsappPhoneNumberId !== event.numberId) continue;
      seen.add(record.id);
      const secrets = decryptSecrets(ctx, record);
      const own = secrets.whatsappAppSecret;
      const signed = own ? adapter.verifySignature(rawBody, signature, own) : signedByServer;
      if (signed && secrets.whatsappAccessToken) numbers.push({ record, accessToken: secrets.whatsappAccessToken });
    }
  }
  if (numbers.length === 0 && !signedByServer) return { ok: false };
  return { ok: true, events, numbers };
}
