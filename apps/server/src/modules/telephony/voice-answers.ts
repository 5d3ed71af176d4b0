import type { MediaStreamProvider } from "@parley/contract";
import type { IncomingCall, TelephonyAccount, TelephonyAdapter, WebhookAnswer } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { CallRecord } from "../calls/runtime.ts";
import { webhookUrlsFor } from "../phone-numbers/service.ts";
import { signStreamGrant } from "./grants.ts";
import type { VerifiedNumber } from "./signed-webhooks.ts";
import { callUrlsFor } from "./stream-urls.ts";

/** The markups a voice webhook answers with: the call's stream, a refusal, a repeat's answer. */

/** Markup pointing the vendor at a stream with no grant: Parley refuses it and nothing follows it. */
function streamlessAnswer(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  call: IncomingCall,
  reason: string,
): WebhookAnswer {
  return adapter.answerWithStream(webhookUrlsFor(ctx.config.publicUrl, provider), { refused: reason }, call);
}

/**
 * Markup that ends the call: a stream Parley refuses, and the call hung up through the REST API so
 * it does not wait on the socket. (The adapter interface has no "reject" markup of its own.)
 */
export function refusal(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  account: TelephonyAccount,
  call: IncomingCall,
  reason: string,
): WebhookAnswer {
  ctx.calls.log.info({ provider, reason }, "phone call refused");
  void adapter
    .hangup(account, call.providerCallId)
    .catch((error: unknown) =>
      ctx.calls.log.warn({ provider, reason, ...failureFields(error) }, "could not hang up a refused call"),
    );
  return streamlessAnswer(ctx, adapter, provider, call, reason);
}

/**
 * The answer to a new call this process is too busy to take (lib/admission.ts): the vendor's own
 * busy reject where it has one (nothing is answered, so nothing needs hanging up), else the usual
 * refusal. The admission gate has logged the refusal already, rate-limited: no line per call here.
 */
export function busyRefusal(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  account: TelephonyAccount,
  call: IncomingCall,
  text: string,
): WebhookAnswer {
  if (adapter.rejectBusy) return adapter.rejectBusy(text);
  return refusal(ctx, adapter, provider, account, call, text);
}

/** Markup that opens the call's stream, with a grant naming the call (one stream per call can use it). */
export async function streamAnswer(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  call: IncomingCall,
  grant: { callId: string; room: string; workspaceId: string; phoneNumberId: string },
): Promise<WebhookAnswer> {
  const token = await signStreamGrant(ctx.calls, grant);
  const parameters = { call_id: grant.callId, room: grant.room, token };
  const urls = await callUrlsFor(ctx, provider, { workspaceId: grant.workspaceId, name: grant.room });
  return adapter.answerWithStream(urls, parameters, call);
}

/**
 * A voice webhook for a carrier call Parley already logged (the vendor retrying, or a replay): the
 * same call, never a second one. While the call still waits for its stream the answer is the
 * call's stream again; the stream grant is claimed per call, so whichever stream comes first is
 * the only one admitted. Once the call has been answered the answer opens nothing, and the call is
 * not hung up: a replay must not end the real call.
 */
export function answerRepeated(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  verified: VerifiedNumber,
  call: IncomingCall,
  known: CallRecord,
): Promise<WebhookAnswer> | WebhookAnswer {
  if (known.status === "queued") {
    return streamAnswer(ctx, adapter, provider, call, {
      callId: known.id,
      room: ctx.calls.roomOfCall(known.id)?.name ?? "",
      workspaceId: known.workspaceId,
      phoneNumberId: verified.record.id,
    });
  }
  ctx.calls.log.warn(
    { provider, callId: known.id, workspaceId: known.workspaceId, status: known.status },
    "a voice webhook came again for a call already answered: no second call",
  );
  return streamlessAnswer(ctx, adapter, provider, call, "This call has already been answered.");
}
