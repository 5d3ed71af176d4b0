import {
  type Assistant,
  type AssistantFields,
  OpenAiRealtimeConfig,
  type RealtimeConfig,
  type VersionLinks,
} from "@parley/contract";
import { type CallSettings, callSettingsOf, createProvider, FallbackLlm, type LlmProvider } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { Room } from "../../lib/call-runtime.ts";
import type { UsageMeter } from "../billing/usage-meter.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import { type CallWorkflow, callWorkflow } from "../workflows/call-workflow.ts";
import { loadPublishedWorkflow } from "../workflows/published.ts";

/**
 * A realtime assistant's workflow (issue 32). The speech-to-speech model talks; the workflow's own
 * requests (extracting variables, judging "model" edges) go to the assistant's pipeline model and
 * its backups, as on a pipeline call: the same runner, the same routing model.
 */

type LlmSettings = CallSettings["providers"]["llm"];

async function llmOf(ctx: AppContext, workspaceId: string, settings: LlmSettings): Promise<LlmProvider> {
  const credentials = await resolveCredentials(ctx, workspaceId, settings.provider, { url: settings.config.base_url });
  return createProvider("llm", settings.provider, { credentials, config: settings.config, net: ctx.network });
}

/**
 * The assistant's pipeline model with its backups (a backup that cannot be built is left out, as
 * on the pipeline). A missing key of the main model throws the engine's MissingCredentialError.
 */
export async function routingModel(ctx: AppContext, workspaceId: string, settings: CallSettings): Promise<LlmProvider> {
  const main = await llmOf(ctx, workspaceId, settings.providers.llm);
  const backups = await Promise.all(
    settings.fallbacks.llm.map((backup) => llmOf(ctx, workspaceId, backup).catch(() => null)),
  );
  const chain = [main, ...backups.filter((llm): llm is LlmProvider => llm !== null)];
  return chain.length > 1 ? new FallbackLlm(chain) : main;
}

/**
 * The workflow a realtime call runs, routed by the assistant's pipeline model counted on `usage`;
 * null when the assistant has none published (then no pipeline key is needed).
 */
export async function realtimeWorkflow(
  ctx: AppContext,
  room: Room,
  assistant: Assistant,
  settings: CallSettings,
  usage: UsageMeter,
  links: VersionLinks,
): Promise<CallWorkflow | null> {
  const pinned = links.workflow_version;
  if (pinned === null || !assistant.workflow_id) return null;
  if (!(await loadPublishedWorkflow(ctx.db, room, assistant, pinned))) return null;
  const llm = usage.wrapModel(await routingModel(ctx, room.workspaceId, settings));
  return callWorkflow(ctx, room, assistant, llm, room.variables, pinned);
}

/**
 * Refuses a realtime assistant with a workflow whose routing model has no key: the call's start
 * answers 409 naming it, as a pipeline assistant's missing key does.
 */
export async function requireRoutingKey(
  ctx: AppContext,
  workspaceId: string,
  assistant: AssistantFields,
): Promise<void> {
  if (!assistant.workflow_id) return;
  await llmOf(ctx, workspaceId, callSettingsOf(assistant).providers.llm);
}

/**
 * A workflow advances on the caller's words, so its call transcribes the caller even when the
 * assistant switched that off (a Realtime API transcription model of null: the default one; the Live API's
 * `input_transcription` false: on). Without it a spoken turn would never move the workflow.
 */
export function withCallerTranscript(config: RealtimeConfig): RealtimeConfig {
  if (config.provider !== "openai-realtime") return { ...config, input_transcription: true };
  const fallback = OpenAiRealtimeConfig.parse({ provider: config.provider }).transcription_model;
  return { ...config, transcription_model: config.transcription_model ?? fallback };
}
