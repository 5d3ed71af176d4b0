import type { Assistant, TtsProviderConfig } from "@parley/contract";
import {
  createLlmProvider,
  createSttProvider,
  createTtsProvider,
  EspeakTts,
  FallbackLlm,
  FallbackStt,
  FallbackTts,
  type LlmProvider,
  PocketsphinxStt,
  type SttProvider,
  type TtsProvider,
} from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { resolveCredentials } from "../integrations/credentials.ts";

/** What a fallback adapter reports when it moves to the next provider. */
type FallbackSwitch = Parameters<NonNullable<ConstructorParameters<typeof FallbackLlm>[1]>>[0];

export interface CallProviders {
  stt: SttProvider;
  llm: LlmProvider;
  tts: TtsProvider;
}

/**
 * The assistant's three providers with the workspace's credentials, on the SSRF-safe network.
 * Each stage sits in the engine's fallback adapter, which adds its retry policy and reports a
 * switch; with one provider per stage today, a switch only happens once a stage lists more.
 */
export async function buildCallProviders(
  ctx: AppContext,
  workspaceId: string,
  assistant: Assistant,
  onSwitch: (event: FallbackSwitch) => void,
): Promise<CallProviders> {
  const [sttCredentials, llmCredentials, ttsCredentials] = await Promise.all([
    resolveCredentials(ctx, workspaceId, assistant.stt_provider),
    resolveCredentials(ctx, workspaceId, assistant.llm_provider),
    resolveCredentials(ctx, workspaceId, assistant.tts_provider),
  ]);
  const net = ctx.network;
  // The key-free local providers need no credentials or network; the factories cover the vendors.
  const stt =
    assistant.stt_provider === "local"
      ? new PocketsphinxStt(assistant.stt_provider_config)
      : createSttProvider(assistant.stt_provider, {
          credentials: sttCredentials,
          config: assistant.stt_provider_config,
          net,
        });
  const llm = createLlmProvider(assistant.llm_provider, {
    credentials: llmCredentials,
    config: assistant.llm_provider_config,
    net,
  });
  const ttsConfig: TtsProviderConfig = assistant.tts_provider_config;
  const tts =
    assistant.tts_provider === "local"
      ? new EspeakTts(ttsConfig)
      : createTtsProvider(assistant.tts_provider, { credentials: ttsCredentials, config: ttsConfig, net });
  return {
    stt: new FallbackStt([stt], onSwitch),
    llm: new FallbackLlm([llm], onSwitch),
    tts: new FallbackTts([tts], onSwitch),
  };
}
