import {
  type Assistant,
  DEFAULT_CALLER_VOICE,
  type LlmSettings,
  type SimulatedCaller,
  TtsSettings,
} from "@parley/contract";
import {
  callSettingsOf,
  createProvider,
  faultMessage,
  type LlmProvider,
  MissingCredentialError,
  type TtsProvider,
} from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { resolveCredentials } from "../integrations/credentials.ts";

/**
 * The providers a test call needs besides the assistant's own: the simulated caller's voice and
 * model, and the model that judges rubrics. Each is built as a call's providers are: the workspace's
 * credentials (a saved key goes only to the host it was saved for) on the SSRF-safe network. A
 * missing key throws the engine's MissingCredentialError, whose sentence names it.
 */

/** The assistant's own model settings: the caller's and the judge's when the case and suite name none. */
const assistantModel = (assistant: Assistant): LlmSettings => callSettingsOf(assistant).providers.llm;

async function buildModel(ctx: AppContext, workspaceId: string, settings: LlmSettings): Promise<LlmProvider> {
  const credentials = await resolveCredentials(ctx, workspaceId, settings.provider, { url: settings.config.base_url });
  return createProvider("llm", settings.provider, { credentials, config: settings.config, net: ctx.network });
}

async function buildVoice(ctx: AppContext, workspaceId: string, settings: TtsSettings): Promise<TtsProvider> {
  const credentials = await resolveCredentials(ctx, workspaceId, settings.provider);
  return createProvider("tts", settings.provider, { credentials, config: settings.config, net: ctx.network });
}

export interface CallerProviders {
  tts: TtsProvider;
  /** Persona mode only: a scripted caller has no model. */
  llm: LlmProvider | null;
}

/** The simulated caller's voice (the offline one unless the case names one) and, in persona mode, its model. */
export async function callerProviders(
  ctx: AppContext,
  workspaceId: string,
  caller: SimulatedCaller,
  assistant: Assistant,
): Promise<CallerProviders> {
  const voice = caller.voice ?? TtsSettings.parse(DEFAULT_CALLER_VOICE);
  const [tts, llm] = await Promise.all([
    buildVoice(ctx, workspaceId, voice),
    caller.mode === "persona" ? buildModel(ctx, workspaceId, caller.model ?? assistantModel(assistant)) : null,
  ]);
  return { tts, llm };
}

/** The model that judges rubrics: the suite's judge model, else the assistant's own. */
export function judgeModel(
  ctx: AppContext,
  workspaceId: string,
  suiteJudge: LlmSettings | null,
  assistant: Assistant,
): Promise<LlmProvider> {
  return buildModel(ctx, workspaceId, suiteJudge ?? assistantModel(assistant));
}

/** Why a provider could not be built: a missing key's own sentence (it names the key and where to add it), else the redacted error. */
export const providerSetupProblem = (error: unknown): string =>
  error instanceof MissingCredentialError ? error.detail : faultMessage(error);
