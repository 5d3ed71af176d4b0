import type { WebhookRequest } from "@parley/engine";
import type { FastifyRequest } from "fastify";

/**
 * A vendor webhook as the vendor signed it: the public URL it called (PUBLIC_URL + path + query,
 * since behind a proxy the server's own host is not what the vendor saw), the headers and the raw
 * body (the stream routes keep bodies unparsed for this).
 */
export function webhookRequestOf(request: FastifyRequest, publicUrl: string): WebhookRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return {
    url: `${publicUrl.replace(/\/+$/, "")}${request.url}`,
    method: request.method === "GET" ? "GET" : "POST",
    headers,
    rawBody: typeof request.body === "string" ? request.body : "",
  };
}
