import type { NetworkDeps } from "../types.ts";

/**
 * The WhatsApp Cloud API (Graph API) calls Parley makes for a business number: read the number
 * behind a token, subscribe the app to the business account's webhooks, and answer or end calls.
 * Types are local (structurally the engine's CallingAdapter) so this folder imports nothing of
 * the WebRTC layer that loads it.
 */

export interface CloudAccount {
  apiUrl: string;
  accessToken: string;
  numberId: string;
  net: NetworkDeps;
}

export type NumberCheck =
  | { ok: true; displayNumber: string; verifiedName: string | null }
  | {
      ok: false;
      problem: "invalid_token" | "invalid_number_id" | "number_mismatch" | "unreachable";
      message: string;
    };

interface GraphError {
  message?: string;
  type?: string;
  code?: number;
}

const TIMEOUT_MS = 15_000;

/** Digits only: display numbers come as "+1 415-555-0123" or "14155550123". */
export const digitsOf = (number: string) => number.replace(/\D/g, "");

const graphUrl = (account: CloudAccount, path: string) =>
  `${account.apiUrl.replace(/\/+$/, "")}/${path.split("/").map(encodeURIComponent).join("/")}`;

async function graphRequest(
  account: CloudAccount,
  path: string,
  init: { method: "GET" | "POST"; json?: unknown; query?: string },
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${account.accessToken}`,
    accept: "application/json",
  };
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const response = await account.net.fetch(`${graphUrl(account, path)}${init.query ?? ""}`, {
    method: init.method,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

function graphErrorOf(body: unknown): GraphError {
  if (typeof body !== "object" || body === null || !("error" in body)) return {};
  const error = body.error;
  if (typeof error !== "object" || error === null) return {};
  const field = (name: string) => Reflect.get(error, name);
  const message = field("message");
  const type = field("type");
  const code = field("code");
  return {
    ...(typeof message === "string" ? { message } : {}),
    ...(typeof type === "string" ? { type } : {}),
    ...(typeof code === "number" ? { code } : {}),
  };
}

const stringField = (body: unknown, name: string): string | null => {
  if (typeof body !== "object" || body === null) return null;
  const value = Reflect.get(body, name);
  return typeof value === "string" ? value : null;
};

/**
 * GET /{phone_number_id}?fields=display_phone_number,verified_name. A refused token is Graph error
 * 190 (OAuthException, HTTP 401); an id that is not a number this token can read is error 100
 * ("… does not exist …"); a number other than the one given is a mismatch.
 */
export async function checkNumber(account: CloudAccount, expectedE164: string): Promise<NumberCheck> {
  let answer: { status: number; body: unknown };
  try {
    answer = await graphRequest(account, account.numberId, {
      method: "GET",
      query: "?fields=display_phone_number,verified_name",
    });
  } catch (error) {
    return { ok: false, problem: "unreachable", message: error instanceof Error ? error.message : String(error) };
  }
  const { status, body } = answer;
  if (status >= 500) return { ok: false, problem: "unreachable", message: `HTTP ${status}` };
  if (status >= 400) {
    const error = graphErrorOf(body);
    const message = error.message ?? `HTTP ${status}`;
    const tokenRefused =
      status === 401 || error.code === 190 || (error.type === "OAuthException" && error.code !== 100);
    if (tokenRefused) return { ok: false, problem: "invalid_token", message };
    return { ok: false, problem: "invalid_number_id", message };
  }
  const displayNumber = stringField(body, "display_phone_number");
  if (!displayNumber) return { ok: false, problem: "invalid_number_id", message: "no display_phone_number" };
  if (digitsOf(displayNumber) !== digitsOf(expectedE164)) {
    return { ok: false, problem: "number_mismatch", message: `the Phone Number ID is for ${displayNumber}` };
  }
  return { ok: true, displayNumber, verifiedName: stringField(body, "verified_name") };
}

async function expectSuccess(what: string, answer: Promise<{ status: number; body: unknown }>): Promise<void> {
  const { status, body } = await answer;
  if (status >= 400) throw new Error(`${what} was refused: ${graphErrorOf(body).message ?? `HTTP ${status}`}`);
}

/** POST /{waba_id}/subscribed_apps: the app that owns the token gets the account's webhooks. */
export function subscribeApp(account: CloudAccount, businessAccountId: string): Promise<void> {
  return expectSuccess(
    "Subscribing the app to the business account",
    graphRequest(account, `${businessAccountId}/subscribed_apps`, { method: "POST" }),
  );
}

type CallAction = "pre_accept" | "accept" | "reject" | "terminate";

/** POST /{phone_number_id}/calls with an action (and the SDP answer for pre_accept and accept). */
export function callAction(account: CloudAccount, callId: string, action: CallAction, sdp?: string): Promise<void> {
  const json = {
    messaging_product: "whatsapp",
    call_id: callId,
    action,
    ...(sdp !== undefined ? { session: { sdp_type: "answer", sdp } } : {}),
  };
  return expectSuccess(
    `The call's ${action}`,
    graphRequest(account, `${account.numberId}/calls`, { method: "POST", json }),
  );
}
