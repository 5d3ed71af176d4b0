import { z } from "zod";
import { type LlmFields, LlmSettings, type SttFields, SttSettings, type TtsFields, TtsSettings } from "./index.ts";

export interface ProviderSettings {
  llm: LlmSettings;
  stt: SttSettings;
  tts: TtsSettings;
}

type Stage = keyof ProviderSettings;

/** Issue paths as the wire names them: `stt_provider_config.language` rather than `config.language`. */
function onTheWire(stage: Stage, error: z.ZodError): z.core.$ZodIssue[] {
  return error.issues.map((issue) => {
    const [head, ...rest] = issue.path;
    return { ...issue, path: [head === "config" ? `${stage}_provider_config` : `${stage}_provider`, ...rest] };
  });
}

/**
 * Checks each provider config of an assistant with its own provider's schema. On the wire the
 * configs stay plain objects (the assistant schema accepts any keys), so this is the typed check
 * a caller runs after merging a config over its base; the result is the three typed settings.
 */
export function parseProviderConfigs(
  a: LlmFields & SttFields & TtsFields,
): { success: true; data: ProviderSettings } | { success: false; error: z.ZodError } {
  const llm = LlmSettings.safeParse({ provider: a.llm_provider, config: a.llm_provider_config ?? {} });
  const stt = SttSettings.safeParse({ provider: a.stt_provider, config: a.stt_provider_config ?? {} });
  const tts = TtsSettings.safeParse({ provider: a.tts_provider, config: a.tts_provider_config ?? {} });
  if (llm.success && stt.success && tts.success) {
    return { success: true, data: { llm: llm.data, stt: stt.data, tts: tts.data } };
  }
  const issues = [
    ...(llm.success ? [] : onTheWire("llm", llm.error)),
    ...(stt.success ? [] : onTheWire("stt", stt.error)),
    ...(tts.success ? [] : onTheWire("tts", tts.error)),
  ];
  return { success: false, error: new z.ZodError(issues) };
}
