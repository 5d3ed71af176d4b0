import { LLM_CATALOG, LLM_PROVIDERS, type LlmProviderId, ModelsResponse, VoicesResponse } from "@parley/contract";
import { listModels, ProviderError } from "@parley/engine";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import { withLabels } from "./builtin.ts";

/**
 * The language model providers that run on a server the assistant names by its base URL (Ollama,
 * vLLM, LM Studio): their models are whatever that server has, so its own /models list is offered.
 */
export const SERVER_MODEL_PROVIDERS: readonly LlmProviderId[] = LLM_PROVIDERS.filter(
  (id) => LLM_CATALOG[id].needsBaseUrl && LLM_CATALOG[id].offline,
);

export const ServerModelsQuery = z.object({
  base_url: z
    .url({ protocol: /^https?$/, error: "base_url must be an http or https URL" })
    .max(2000)
    .optional()
    .describe("The assistant's base URL; without it the built-in list is answered"),
});

/** A model list and, when the server could not be asked, why (the built-in list answers then). */
export const ServerModelsResponse = ModelsResponse.extend({ error: VoicesResponse.shape.error });
export type ServerModelsResponse = z.infer<typeof ServerModelsResponse>;

/** What went wrong, without the engine's "<provider>: " prefix (the editor words the sentence). */
function reasonOf(error: unknown): string {
  if (error instanceof ProviderError) return error.message.slice(error.provider.length + 2);
  return error instanceof Error ? error.message : String(error);
}

/**
 * The models the server at `baseUrl` lists, asked through the SSRF-safe network. The workspace's
 * saved key goes along only when `baseUrl` is on the host it was saved with. A server that cannot
 * be asked yields the built-in list with the reason, so the editor always has something to offer
 * next to free text.
 */
export async function serverModels(
  ctx: AppContext,
  workspaceId: string,
  provider: LlmProviderId,
  baseUrl: string,
): Promise<ServerModelsResponse> {
  const builtin = LLM_CATALOG[provider].models;
  const saved = await resolveCredentials(ctx, workspaceId, provider, { url: baseUrl });
  try {
    const ids = await listModels(provider, { ...saved, base_url: baseUrl }, ctx.network);
    return { provider, models: withLabels(ids, builtin) };
  } catch (error) {
    return { provider, models: builtin, error: reasonOf(error) };
  }
}
