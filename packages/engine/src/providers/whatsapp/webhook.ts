import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { CallingEvent } from "../calling-event.ts";
import { digitsOf } from "./cloud-api.ts";

/** X-Hub-Signature-256: "sha256=" + the hex HMAC-SHA256 of the raw body, keyed with the app secret. */
export function verifySignature(rawBody: string, header: string | undefined, appSecret: string): boolean {
  if (!header?.startsWith("sha256=") || appSecret === "") return false;
  const given = Buffer.from(header.slice("sha256=".length), "hex");
  const expected = createHmac("sha256", appSecret).update(rawBody, "utf8").digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const CallEntry = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  event: z.string(),
  session: z.object({ sdp_type: z.string(), sdp: z.string() }).optional(),
  status: z.string().optional(),
  duration: z.coerce.number().optional(),
});

const Change = z.object({
  field: z.string(),
  value: z.object({
    metadata: z.object({ display_phone_number: z.string(), phone_number_id: z.string() }),
    contacts: z
      .array(z.object({ profile: z.object({ name: z.string() }).partial().optional(), wa_id: z.string() }))
      .optional(),
    calls: z.array(CallEntry).optional(),
  }),
});

const Notification = z.object({
  object: z.string(),
  entry: z.array(z.object({ id: z.string(), changes: z.array(z.unknown()) })),
});

const e164 = (number: string) => `+${digitsOf(number)}`;

/**
 * The "calls" field's events of a webhook notification: connect (a user calls, with the SDP offer)
 * and terminate (the call ended). Messages, statuses and unknown call events are skipped.
 */
export function parseWebhook(rawBody: string): CallingEvent[] {
  const notification = Notification.parse(JSON.parse(rawBody));
  const events: CallingEvent[] = [];
  for (const entry of notification.entry) {
    for (const raw of entry.changes) {
      const change = Change.safeParse(raw);
      if (!change.success || change.data.field !== "calls") continue;
      const { metadata, contacts, calls } = change.data.value;
      for (const call of calls ?? []) {
        const common = {
          callId: call.id,
          numberId: metadata.phone_number_id,
          businessNumber: e164(metadata.display_phone_number),
          from: e164(call.from),
          to: e164(call.to),
        };
        if (call.event === "connect" && call.session?.sdp_type === "offer") {
          const contact = contacts?.find((c) => digitsOf(c.wa_id) === digitsOf(call.from));
          events.push({
            type: "connect",
            ...common,
            sdp: call.session.sdp,
            callerName: contact?.profile?.name ?? null,
          });
        } else if (call.event === "terminate") {
          events.push({
            type: "terminate",
            ...common,
            status: call.status ?? null,
            durationSeconds: call.duration ?? null,
          });
        }
      }
    }
  }
  return events;
}
