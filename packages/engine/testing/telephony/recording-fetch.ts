import type { TelephonyAccount, TelephonyNetwork, WebhookUrls } from "../../src/telephony/types.ts";

/** One request an adapter sent, as a test reads it back. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type Responder = (request: RecordedRequest) => { status?: number; json?: unknown } | undefined;

/**
 * A network for unit tests of the REST calls: records each request and answers with what the
 * responder returns (200 `{}` when it returns nothing), so a test checks the exact request shapes.
 */
export function recordingNetwork(responder: Responder = () => undefined): {
  net: TelephonyNetwork;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const request: RecordedRequest = {
      method: init?.method ?? "GET",
      url: typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      headers,
      body: typeof init?.body === "string" ? init.body : "",
    };
    requests.push(request);
    const answer = responder(request) ?? {};
    return new Response(JSON.stringify(answer.json ?? {}), {
      status: answer.status ?? 200,
      headers: { "content-type": "application/json" },
    });
  };
  return { net: { fetch }, requests };
}

/** An account on the recording network. */
export function testAccount(credentials: Record<string, string>, responder?: Responder) {
  const { net, requests } = recordingNetwork(responder);
  const account: TelephonyAccount = { credentials, net };
  return { account, requests };
}

/** A recorded request's JSON body (null when it had none). */
export function jsonBody(request: { body: string } | undefined): unknown {
  return JSON.parse(request?.body ?? "null");
}

/** The webhook URLs Parley gives a carrier for its calls, as the server builds them for `vendor`. */
export function webhookUrls(vendor: string): WebhookUrls {
  return {
    voiceUrl: `https://parley.example/api/v1/telephony/${vendor}/voice`,
    statusUrl: `https://parley.example/api/v1/telephony/${vendor}/status`,
    streamUrl: `wss://parley.example/api/v1/telephony/${vendor}/stream`,
  };
}
