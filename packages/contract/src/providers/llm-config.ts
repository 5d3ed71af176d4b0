import { z } from "zod";

/** The language model configuration every LLM provider shares (its defaults live in its descriptor). */
export const LlmProviderConfig = z.object({
  model: z.string().trim().min(1, "Model is required").max(200),
  /** Where to send requests, for providers that need a base URL (self-hosted servers, cloud deployments). */
  base_url: z.url({ protocol: /^https?$/, error: "Base URL must be an http(s) URL" }).optional(),
  /** Cloud deployments: the deployment name and API version. */
  deployment: z.string().trim().max(200).optional(),
  api_version: z.string().trim().max(40).optional(),
});
export type LlmProviderConfig = z.infer<typeof LlmProviderConfig>;
