import type { AssistantFields, ProviderSettings } from "@parley/contract";
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

export interface CallProviders {
  stt: SttProvider;
  llm: LlmProvider;
  tts: TtsProvider;
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
  const net = ctx.network;
  const { stt, llm, tts } = settings;
  // A saved secret only goes to the host it was saved with: an assistant's own base URL gets none.
  const credentialsOf = (provider: string, url?: string) => resolveCredentials(ctx, workspaceId, provider, { url });
  const [sttProvider, llmProvider, ttsProvider] = await Promise.all([
    credentialsOf(stt.provider).then((credentials) =>
      createProvider("stt", stt.provider, { credentials, config: stt.config, net }),
    ),
    credentialsOf(llm.provider, llm.config.base_url).then((credentials) =>
      createProvider("llm", llm.provider, { credentials, config: llm.config, net }),
    ),
    credentialsOf(tts.provider).then((credentials) =>
      createProvider("tts", tts.provider, { credentials, config: tts.config, net }),
    ),
  ]);
  return { stt: sttProvider, llm: llmProvider, tts: ttsProvider };
}

/**
 * Refuses to start a call whose providers lack a credential: a missing key is the user's to add on
 * the Integrations page (409 naming it), not an outage. Other set-up failures (an invalid stored
 * config, a vendor down) still surface when the caller joins, in the call's log.
 */
export async function requireProviderCredentials(ctx: AppContext, workspaceId: string, assistant: AssistantFields) {
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
