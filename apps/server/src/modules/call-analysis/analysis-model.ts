import type { AssistantFields } from "@parley/contract";
import { callSettingsOf, createProvider, type LlmProvider } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { UsageMeter } from "../billing/usage-meter.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import type { Complete } from "./analyse-call.ts";

/** Analysis answers are short; a summary or an extraction that needs more is not a summary. */
const MAX_TOKENS = 1500;
/** One completion may take this long before it counts as a failed attempt (the job retries). */
const COMPLETION_TIMEOUT_MS = 90_000;

/**
 * The assistant's own language model, as its calls build it: its provider and config, the
 * workspace's credentials (a saved key goes only to the host it was saved for), the SSRF-safe
 * network. Analysis answers at temperature 0 so the same call reads the same way twice. `meter`
 * counts the tokens it uses, which are added to the call's cost.
 */
export async function analysisModel(
  ctx: AppContext,
  workspaceId: string,
  assistant: AssistantFields,
): Promise<{ complete: Complete; provider: LlmProvider; meter: UsageMeter }> {
  const { llm } = callSettingsOf(assistant).providers;
  const credentials = await resolveCredentials(ctx, workspaceId, llm.provider, { url: llm.config.base_url });
  const meter = new UsageMeter();
  const provider = meter.wrapModel(
    await createProvider("llm", llm.provider, { credentials, config: llm.config, net: ctx.network }),
  );
  const complete: Complete = async (messages) => {
    let text = "";
    const signal = AbortSignal.timeout(COMPLETION_TIMEOUT_MS);
    for await (const chunk of provider.chat({ messages, temperature: 0, maxTokens: MAX_TOKENS, signal })) {
      if (chunk.type === "text") text += chunk.text;
    }
    return text;
  };
  return { complete, provider, meter };
}
