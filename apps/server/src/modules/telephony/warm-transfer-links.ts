import { type MediaStreamProvider, routedSocketPath, type TranscriptEntry } from "@parley/contract";
import { callSettingsOf, concatPcm, createProvider, ENGINE_SAMPLE_RATE, resample } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import { webhookUrlsFor } from "../phone-numbers/service.ts";
import { defaultBriefing } from "./briefing-text.ts";
import type { WarmTransferDeps, WarmTransferRecord } from "./warm-transfer.ts";

/** A briefing is a few sentences: past this the voice provider is considered stuck. */
const SYNTHESIS_TIMEOUT_MS = 30_000;

/** The call a warm transfer belongs to. */
export interface WarmTransferCall {
  tenant: TenantScope;
  callId: string;
  agentId: string | null;
  provider: MediaStreamProvider;
  /** The caller's number (the far end of the phone call). */
  caller: string;
}

/** The caller's turns so far, as the call's progress saved them; empty when the log cannot be read. */
async function transcriptOf(ctx: AppContext, call: WarmTransferCall): Promise<TranscriptEntry[]> {
  try {
    return (await ctx.calls.state.get(call.tenant, call.callId)).transcript;
  } catch {
    return [];
  }
}

/**
 * The server's side of a warm transfer for one phone call: the destination's mode and briefing
 * from the assistant's transfer settings, the briefing spoken with the assistant's own voice
 * provider (the workspace's credentials), and the outcome kept with the call.
 */
export function warmTransferDeps(ctx: AppContext, call: WarmTransferCall): WarmTransferDeps {
  const assistantOf = () =>
    call.agentId ? findAssistant(ctx.db, call.tenant, call.agentId) : Promise.resolve(undefined);
  return {
    // The briefing leg's stream comes back to this node, which runs the call.
    streamUrl: routedSocketPath(webhookUrlsFor(ctx.config.publicUrl, call.provider).streamUrl, ctx.node.routingKey),
    now: () => ctx.now(),
    async planFor(number) {
      const assistant = await assistantOf();
      const destination = assistant?.transfer_config.find((d) => d.number === number && d.mode === "warm");
      if (!destination) return null;
      const briefing = destination.briefing || defaultBriefing(call.caller, await transcriptOf(ctx, call));
      return { destination: { name: destination.name, number: destination.number }, briefing };
    },
    async speak(text) {
      const assistant = await assistantOf();
      if (!assistant) throw new Error("The assistant of this call no longer exists.");
      const { tts } = callSettingsOf(assistant).providers;
      const credentials = await resolveCredentials(ctx, call.tenant.workspaceId, tts.provider);
      const provider = await createProvider("tts", tts.provider, { credentials, config: tts.config, net: ctx.network });
      const pieces: Int16Array[] = [];
      let rate = ENGINE_SAMPLE_RATE;
      for await (const chunk of provider.synthesize(text, { signal: AbortSignal.timeout(SYNTHESIS_TIMEOUT_MS) })) {
        rate = chunk.sampleRate;
        pieces.push(chunk.pcm);
      }
      const joined = concatPcm(pieces);
      return rate === ENGINE_SAMPLE_RATE ? joined : resample(joined, rate, ENGINE_SAMPLE_RATE);
    },
    async record(record: WarmTransferRecord) {
      // The call's log was closed when the assistant's session ended (as "transferred"); the
      // transfer's later steps are logged here until the call-logs service can append events.
      ctx.calls.log.info({ callId: call.callId, warmTransfer: record }, "warm transfer");
    },
  };
}
