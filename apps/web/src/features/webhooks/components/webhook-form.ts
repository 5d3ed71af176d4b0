import { CreateWebhookBody, type WebhookEndpoint } from "@parley/contract";
import { z } from "zod";

/** The endpoint dialog's form: the contract's own rules. */
export const WebhookForm = z.object({
  url: CreateWebhookBody.shape.url,
  description: z.string().trim().max(500),
  events: CreateWebhookBody.shape.events,
  enabled: z.boolean(),
});
export type WebhookFormInput = z.input<typeof WebhookForm>;
export type WebhookFormOutput = z.output<typeof WebhookForm>;

export function webhookFormDefaults(endpoint: WebhookEndpoint | null): WebhookFormInput {
  return {
    url: endpoint?.url ?? "",
    description: endpoint?.description ?? "",
    events: endpoint?.events ?? ["call.ended"],
    enabled: endpoint?.enabled ?? true,
  };
}
