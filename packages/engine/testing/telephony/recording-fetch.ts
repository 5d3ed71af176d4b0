import type {
  TelephonyAccount,
  TelephonyAdapter,
  TelephonyNetwork,
  TransferRequest,
  WebhookUrls,
} from "../../src/telephony/types.ts";

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

/**
 * Places a call from `from` to `to` with machine detection on a recording network answering
 * `answer`; returns the call id the adapter read and the request it sent.
 */
export async function placeRecordedCall(
  adapter: TelephonyAdapter,
  credentials: Record<string, string>,
  answer: { status?: number; json?: unknown },
  call: { from: string; to: string; urls: WebhookUrls },
): Promise<{ id: string; request: RecordedRequest | undefined }> {
  const { account, requests } = testAccount(credentials, () => answer);
  const id = await adapter.placeCall(account, { ...call, machineDetection: true });
  return { id, request: requests[0] };
}

/** The requests an adapter sends to transfer a live call, play `digits` on it and hang it up. */
export async function liveCallRequests(
  adapter: TelephonyAdapter,
  credentials: Record<string, string>,
  transfer: TransferRequest,
  digits: string,
): Promise<RecordedRequest[]> {
  const { account, requests } = testAccount(credentials);
  await adapter.transfer(account, transfer);
  await adapter.sendDtmf(account, transfer.providerCallId, digits);
  await adapter.hangup(account, transfer.providerCallId);
  return requests;
}
