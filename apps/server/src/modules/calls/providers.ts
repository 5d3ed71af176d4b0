import { type AssistantFields, type ProviderSettings, TTS_DEFAULT_CONFIG, TtsSettings } from "@parley/contract";
import {
  type CallSettings,
  callSettingsOf,
  createProvider,
  type LlmProvider,
  type SttProvider,
  type TtsProvider,
} from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { missingKeyConflict, resolveCredentials } from "../integrations/credentials.ts";
import { requireRealtimeKey, runsRealtime } from "./realtime-session.ts";

export interface CallProviders {
  stt: SttProvider;
  llm: LlmProvider;
  tts: TtsProvider;
}

/** The call's providers and, per stage, its backups in the order the fault policy tries them. */
export interface CallProviderChains extends CallProviders {
  fallbacks: { stt: SttProvider[]; llm: LlmProvider[]; tts: TtsProvider[] };
}

type Net = AppContext["network"];

/** One provider of a stage with the workspace's credentials (a saved secret only goes to the host it was saved for). */
function stageProvider(ctx: AppContext, workspaceId: string, net: Net) {
  const credentialsOf = (provider: string, url?: string) => resolveCredentials(ctx, workspaceId, provider, { url });
  return {
    stt: async (s: ProviderSettings["stt"]) =>
      createProvider("stt", s.provider, { credentials: await credentialsOf(s.provider), config: s.config, net }),
    llm: async (s: ProviderSettings["llm"]) =>
      createProvider("llm", s.provider, {
        credentials: await credentialsOf(s.provider, s.config.base_url),
        config: s.config,
        net,
      }),
    tts: async (s: ProviderSettings["tts"]) =>
      createProvider("tts", s.provider, { credentials: await credentialsOf(s.provider), config: s.config, net }),
  };
}

/**
 * The call's three providers from its settings, with the workspace's credentials, on the SSRF-safe
 * network. Each retries a failing request itself.
 */
export async function buildCallProviders(
  ctx: AppContext,
  workspaceId: string,
  settings: ProviderSettings,
): Promise<CallProviders> {
  const build = stageProvider(ctx, workspaceId, ctx.network);
  const [stt, llm, tts] = await Promise.all([
    build.stt(settings.stt),
    build.llm(settings.llm),
    build.tts(settings.tts),
  ]);
  return { stt, llm, tts };
}

/**
 * The assistant's providers with their backups. A backup that cannot be built (its key was
 * removed, its config no longer passes) is left out with a warning instead of failing the call:
 * the main provider may well hold. With `lastResortVoice` the offline voice goes last, so a call
 * whose voices all fail still says its recovery line and goodbye.
 */
export async function buildCallProviderChains(
  ctx: AppContext,
  workspaceId: string,
  settings: CallSettings,
  log: { warn(obj: object, msg: string): void },
): Promise<CallProviderChains> {
  const main = await buildCallProviders(ctx, workspaceId, settings.providers);
  const build = stageProvider(ctx, workspaceId, ctx.network);
  const backups = async <S extends { provider: string }, P>(stage: string, list: S[], make: (s: S) => Promise<P>) => {
    const built = await Promise.all(
      list.map((s) =>
        make(s).catch((error: unknown) => {
          log.warn(
            { stage, provider: s.provider, err: error },
            "a backup provider could not be set up; the call runs without it",
          );
          return null;
        }),
      ),
    );
    return built.filter((p): p is Awaited<P> => p !== null);
  };
  const { fallbacks, faults } = settings;
  const [stt, llm, tts] = await Promise.all([
    backups("stt", fallbacks.stt, build.stt),
    backups("llm", fallbacks.llm, build.llm),
    backups("tts", fallbacks.tts, build.tts),
  ]);
  const offline = LAST_RESORT_VOICE;
  if (faults.lastResortVoice && main.tts.id !== offline.provider && !tts.some((v) => v.id === offline.provider)) {
    tts.push(...(await backups("tts", [offline], build.tts)));
  }
  return { ...main, fallbacks: { stt, llm, tts } };
}

/** The voice a call falls back to when all of its own fail: the offline one, needing no key or network. */
const LAST_RESORT_VOICE = TtsSettings.parse({ provider: "local", config: TTS_DEFAULT_CONFIG.local });

/**
 * Refuses to start a call whose providers lack a credential: a missing key is the user's to add on
 * the Integrations page (409 naming it), not an outage. Other set-up failures (an invalid stored
 * config, a vendor down) still surface when the caller joins, in the call's log.
 */
export async function requireProviderCredentials(ctx: AppContext, workspaceId: string, assistant: AssistantFields) {
  // A speech-to-speech assistant needs its model's key; its pipeline is only a fallback.
  if (runsRealtime(assistant)) {
    try {
      return await requireRealtimeKey(ctx, workspaceId, assistant);
    } catch (error) {
      throw missingKeyConflict(error) ?? error;
    }
  }
  let settings: CallSettings;
  try {
    settings = callSettingsOf(assistant);
  } catch {
    return;
  }
  try {
    await buildCallProviders(ctx, workspaceId, settings.providers);
  } catch (error) {
    const conflict = missingKeyConflict(error);
    if (conflict) throw conflict;
  }
}
