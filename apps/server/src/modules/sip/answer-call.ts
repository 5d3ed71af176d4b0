import {
  createAnswer,
  type InboundCall,
  parseDigest,
  parseNameAddr,
  parseUri,
  RtpSession,
  verifyDigest,
} from "@parley/sip";
import { ServerBusyError } from "../../lib/admission.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import type { Room } from "../calls/runtime.ts";
import {
  findExtension,
  findNumberByAnyProvider,
  listPhoneNumbers,
  type PhoneNumberRecord,
} from "../phone-numbers/service.ts";
import { recordCallSquad } from "../squads/call-squads.ts";
import { squadEntry } from "../squads/service.ts";
import { fromTrunk } from "./allowed-peers.ts";
import { clearExtensionCall } from "./registrations.ts";
import { requestOrigin } from "./request-origin.ts";
import { routeFor } from "./routing.ts";
import { runAssistantOnLeg } from "./sip-call.ts";
import type { SipRuntime } from "./sip-runtime.ts";
import { transferLeg } from "./transfer.ts";

/** How long a ringing call may wait for its assistant to start before its slot is given back. */
const ANSWER_TIMEOUT_MS = 30_000;

type Admission = { record: PhoneNumberRecord } | { status: number; headers?: [string, string][] };

/** The numbers the INVITE's Request-URI user may name: as dialled, and as E.164 when it is bare digits. */
async function candidatesFor(runtime: SipRuntime, user: string): Promise<PhoneNumberRecord[]> {
  const { db } = runtime.ctx;
  const spellings = /^\d{7,15}$/.test(user) ? [user, `+${user}`] : [user];
  const found = await Promise.all(spellings.map((s) => findNumberByAnyProvider(db, s)));
  return found.flat();
}

/** Whether the INVITE's source is one of the workspace's trunk carriers. */
async function fromWorkspaceTrunk(runtime: SipRuntime, workspaceId: string, address: string): Promise<boolean> {
  const numbers = await listPhoneNumbers(runtime.ctx.db, { workspaceId });
  for (const n of numbers)
    if (n.provider === "sip_trunk" && n.sipTrunk && (await fromTrunk(address, n.sipTrunk))) return true;
  return false;
}

/**
 * Who may call a number: its trunk's carrier (allowed_ips, or the registrar it registers to), any
 * trunk carrier of the workspace for an extension, or an extension of the same workspace proving
 * its password by digest (401 challenge first, realm = its domain).
 */
async function admit(runtime: SipRuntime, call: InboundCall): Promise<Admission> {
  const user = call.calledUser;
  if (!user) return { status: 404 };
  const candidates = await candidatesFor(runtime, user);
  if (candidates.length === 0) return { status: 404 };
  // Behind a trusted SIP proxy, the carrier's own address (what allowed_ips names), not the proxy's.
  const source = requestOrigin(call.invite, runtime.ctx.config.sip.trustedProxies).address;
  for (const record of candidates) {
    if (record.provider === "sip_trunk" && record.sipTrunk && (await fromTrunk(source, record.sipTrunk)))
      return { record };
  }
  const extensions = candidates.filter((c) => c.provider === "extension");
  for (const record of extensions) {
    if (await fromWorkspaceTrunk(runtime, record.workspaceId, source)) return { record };
  }
  const from = parseUri(parseNameAddr(call.request.headers.get("from") ?? "").uri);
  if (!from?.user || extensions.length === 0) return { status: 403 };
  const domain = parseUri(call.request.uri)?.host ?? "";
  // The caller's own extension: in the called domain, else the domain of the extension called.
  const callerDomain = extensions.some((e) => e.extensionDomain === from.host) ? from.host : domain;
  const caller =
    (await findExtension(runtime.ctx.db, from.user, callerDomain)) ??
    (await findExtension(runtime.ctx.db, from.user, extensions[0]?.extensionDomain ?? ""));
  const target = extensions.find((e) => e.workspaceId === caller?.workspaceId);
  if (!caller?.sipHa1 || !caller.extensionDomain || !target) return { status: 403 };
  const realm = caller.extensionDomain;
  const challenge = (stale: boolean): Admission => ({
    status: 401,
    headers: [["WWW-Authenticate", runtime.nonces.challenge(realm, stale)]],
  });
  const params = parseDigest(call.request.headers.get("authorization") ?? "");
  if (!params) return challenge(false);
  const check =
    params.username === (caller.sipUsername ?? from.user)
      ? verifyDigest(params, { method: "INVITE", realm, ha1: caller.sipHa1 }, runtime.nonces)
      : "invalid";
  if (check === "stale") return challenge(true);
  if (check === "ok") return { record: target };
  // A wrong password (or a guess) for an extension: the registrar warns of its own failures alike.
  runtime.calls.log.warn(
    {
      workspaceId: target.workspaceId,
      extension: `${from.user}@${realm}`,
      source: `${call.invite.from.address}:${call.invite.from.port}`,
    },
    "SIP INVITE failed digest authentication",
  );
  return { status: 403 };
}

/** Answers INVITEs to Parley's numbers with the number's inbound assistant. */
export function answerSipCalls(runtime: SipRuntime): void {
  runtime.ua.on("invite", (call) => {
    void answer(runtime, call).catch((error: unknown) => {
      runtime.calls.log.error(
        { err: error, sipCallId: call.callId, source: `${call.invite.from.address}:${call.invite.from.port}` },
        "SIP call failed",
      );
      void call.reject(500);
    });
  });
  runtime.ua.on("merged", (request) => {
    const sipCallId = request.message.headers.get("call-id");
    const source = `${request.from.address}:${request.from.port}`;
    runtime.calls.log.warn({ sipCallId, source }, "SIP INVITE repeats a call already logged");
  });
}

/**
 * 503 with Retry-After (RFC 3261 21.5.4): this node is saturated, not the number busy. A SIP proxy
 * in front (deploy/: Kamailio) sends the INVITE to another node on a 503.
 */
function rejectBusy(call: InboundCall, error: ServerBusyError): Promise<void> {
  return call.reject(503, { headers: [["Retry-After", String(error.retryAfterSeconds)]] });
}

async function answer(runtime: SipRuntime, call: InboundCall): Promise<void> {
  const { calls } = runtime;
  // A saturated process says so before it looks anything up or takes a media port.
  try {
    runtime.ctx.admission.check("sip");
  } catch (error) {
    if (error instanceof ServerBusyError) return rejectBusy(call, error);
    throw error;
  }
  const admission = await admit(runtime, call);
  if (!("record" in admission)) return call.reject(admission.status, { headers: admission.headers ?? [] });
  const { record } = admission;
  const tenant = { workspaceId: record.workspaceId };
  // A squad answers at its first member (issue 31), as on a carrier's number.
  const squad = record.squadId ? await squadEntry(runtime.ctx.db, tenant, record.squadId) : undefined;
  const agentId = squad?.member.assistant_id ?? record.agentId;
  if (!agentId) return call.reject(480, { reason: "No assistant answers this number" });
  const rtp = await RtpSession.open(runtime.rtp).catch(() => null);
  if (!rtp) return call.reject(503);
  const answered = createAnswer(call.offer, { address: runtime.mediaAddress, port: rtp.port });
  if (!answered) {
    rtp.close();
    return call.reject(488);
  }
  const callerUri = call.caller;
  const from = callerUri.user ?? callerUri.uri;
  let room: Room;
  try {
    room = await calls.openCallRoom(record, {
      agentId,
      channel: "sip",
      direction: "inbound",
      from,
      to: record.number,
      // Who carries the call is known before the room opens: the log is written with it at once.
      carrier: { provider: record.provider, providerCallId: call.callId, phoneNumberId: record.id },
      joinTimeoutMs: ANSWER_TIMEOUT_MS,
    });
  } catch (error) {
    rtp.close();
    if (error instanceof ServerBusyError) return rejectBusy(call, error);
    // The workspace is at its concurrent-call limit (or out of minutes): busy, as a phone would say.
    if (error instanceof AppError)
      return call.reject(error.code === "rate_limited" ? 486 : 480, { reason: error.message.slice(0, 80) });
    // A Call-ID is one call: a new INVITE naming a call already logged is a merged or replayed
    // request, refused as RFC 3261 8.2.2.2 says rather than opening a second call.
    if (isUniqueViolation(error)) {
      runtime.calls.log.warn(
        { sipCallId: call.callId, numberId: record.id },
        "SIP INVITE repeats a call already logged",
      );
      return call.reject(482);
    }
    throw error;
  }
  // Recorded before the call is answered: the session reads its squad when it starts.
  if (squad)
    await recordCallSquad(runtime.ctx.db, tenant, {
      callId: room.callId,
      squadId: squad.id,
      member: squad.member.name,
    });
  if (call.state === "ended") {
    rtp.close();
    return calls.expireRoom(room, "caller_hangup");
  }
  await call.ring();
  rtp.configure(answered.agreement);
  await call.accept(answered.sdp);
  const extension =
    record.provider === "extension" && record.extensionDomain
      ? { username: record.sipUsername ?? record.number, domain: record.extensionDomain }
      : null;
  const bridgeEnded = () => {
    if (extension) void clearExtensionCall(runtime.ctx.db, room.callId).catch(() => undefined);
  };
  await runAssistantOnLeg({
    runtime,
    leg: call,
    rtp,
    room,
    origin: { channel: "sip", direction: "inbound", from, to: record.number, telephonyPerMinute: 0 },
    callerName: callerUri.display ?? from,
    extension,
    transfer: async (number) => {
      const route = await routeFor(runtime, record, number);
      // No route of our own: the peer may still know the number (REFER to it on the INVITE's host).
      const fallback = {
        uri: `sip:${number}@${call.invite.from.address}:${call.invite.from.port}`,
        peer: call.invite.from,
        from: `sip:${record.number}@${runtime.host}`,
      };
      return transferLeg(runtime, call, rtp, route ?? fallback, bridgeEnded);
    },
  });
}
