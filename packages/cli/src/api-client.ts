import { ErrorResponse, type StartTestRunBody, TestRun } from "@parley/contract";
import { z } from "zod";

/**
 * The few test-run requests the CLI makes, with retries where they are safe and every answer checked
 * against the contract, so a server of another version fails with a clear message instead of a
 * wrong verdict.
 */

/** Why a request gave up: each maps to what the user should fix. */
export type ApiFailureKind = "auth" | "not_found" | "refused" | "unreachable" | "unexpected";

export class ApiFailure extends Error {
  constructor(
    readonly kind: ApiFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "ApiFailure";
  }
}

export interface RetryPolicy {
  /** Tries of one request before it gives up (network errors, 429 and 5xx). */
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Enough to ride out a server restart or a short rate limit without hiding an outage for long. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, firstDelayMs: 1000, maxDelayMs: 30_000 };
const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiClientOptions {
  url: string;
  key: string;
  retry?: RetryPolicy;
  /** Aborts a waiting retry and the request in flight (Ctrl-C). */
  signal?: AbortSignal;
}

export interface ApiClient {
  startRun(suiteId: string, body: StartTestRunBody): Promise<TestRun>;
  getRun(suiteId: string, runId: string): Promise<TestRun>;
  cancelRun(suiteId: string, runId: string): Promise<TestRun>;
}

/**
 * Whether a failed request may be sent again: a read or a cancel always; starting a run only when
 * the server surely did nothing (429, 503), since a lost answer may hide a run already started.
 */
type Replay = "idempotent" | "not-if-started";

export function createApiClient(options: ApiClientOptions): ApiClient {
  const retry = options.retry ?? DEFAULT_RETRY;
  const runs = (suiteId: string) => `/test-suites/${encodeURIComponent(suiteId)}/runs`;

  async function request(method: "GET" | "POST", path: string, body: unknown, replay: Replay): Promise<TestRun> {
    const what = `${method} ${path}`;
    let delay = retry.firstDelayMs;
    for (let attempt = 1; ; attempt++) {
      const outcome = await send(options, method, path, body);
      const last = attempt >= retry.attempts;
      if (outcome.kind === "response" && !isTransient(outcome.response.status, replay)) {
        return parseAnswer(what, outcome.response);
      }
      if (outcome.kind === "network" && (replay === "not-if-started" || last)) {
        throw new ApiFailure("unreachable", `Could not reach the server at ${options.url} (${outcome.reason}).`);
      }
      if (outcome.kind === "response" && last) {
        throw new ApiFailure(
          "unreachable",
          `The server at ${options.url} kept answering ${outcome.response.status} to ${what} (${attempt} tries): ${await detailOf(outcome.response)}`,
        );
      }
      const wait = outcome.kind === "response" ? (retryAfterMs(outcome.response) ?? delay) : delay;
      if (outcome.kind === "response") await outcome.response.body?.cancel();
      await sleep(Math.min(wait, retry.maxDelayMs), options.signal);
      delay = Math.min(delay * 2, retry.maxDelayMs);
    }
  }

  return {
    startRun: (suiteId, body) => request("POST", runs(suiteId), body, "not-if-started"),
    getRun: (suiteId, runId) =>
      request("GET", `${runs(suiteId)}/${encodeURIComponent(runId)}`, undefined, "idempotent"),
    // Cancelling twice is harmless: the second answers that the run has finished.
    cancelRun: (suiteId, runId) =>
      request("POST", `${runs(suiteId)}/${encodeURIComponent(runId)}/cancel`, undefined, "idempotent"),
  };
}

type SendOutcome = { kind: "response"; response: Response } | { kind: "network"; reason: string };

async function send(options: ApiClientOptions, method: string, path: string, body: unknown): Promise<SendOutcome> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(`${options.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.key}`,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    return { kind: "response", response };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { kind: "network", reason: networkReason(error) };
  }
}

/** 429 and 5xx say "not now": the same request may well succeed shortly. */
function isTransient(status: number, replay: Replay): boolean {
  if (replay === "not-if-started") return status === 429 || status === 503;
  return status === 429 || status >= 500;
}

async function parseAnswer(what: string, response: Response): Promise<TestRun> {
  const { status } = response;
  if (status === 401 || status === 403) {
    throw new ApiFailure("auth", `The server refused the API key (${status}): ${await detailOf(response)}`);
  }
  if (status === 404) throw new ApiFailure("not_found", `${await detailOf(response)} (404 for ${what}).`);
  if (status < 200 || status >= 300) {
    throw new ApiFailure("refused", `The server refused ${what} (${status}): ${await detailOf(response)}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiFailure(
      "unexpected",
      `The answer to ${what} is not JSON: is --url the Parley server's address? It began: ${text.slice(0, 120)}`,
    );
  }
  const run = TestRun.safeParse(json);
  if (!run.success) {
    throw new ApiFailure(
      "unexpected",
      `The answer to ${what} is not a test run as this CLI knows it (is the server another Parley version?):\n${z.prettifyError(run.error)}`,
    );
  }
  return run.data;
}

/** The server's own sentence for an error, with its field errors; the status text when it sent none. */
async function detailOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page): fall back to the status below.
  }
  const parsed = ErrorResponse.safeParse(json);
  if (!parsed.success) return response.statusText || `HTTP ${response.status}`;
  const fields = (parsed.data.errors ?? []).map((e) => `${e.field}: ${e.message}`);
  return [parsed.data.detail, ...fields].join("; ");
}

function retryAfterMs(response: Response): number | undefined {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

/** fetch says only "fetch failed"; the cause has the useful part (ECONNREFUSED, ENOTFOUND, a timeout). */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
  }
  return error.message;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
