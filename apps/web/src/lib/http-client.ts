import { API_BASE_URL } from "../config/env.ts";
import { paths } from "../config/paths.ts";
import { ApiError, toApiError } from "./api-error.ts";
import { takeHeadStart } from "./head-start.ts";
import { withServerWords } from "./server-error-text.ts";
import { accessTokenOf, tokenStorage } from "./token-storage.ts";

export interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** JSON body, or a URLSearchParams/FormData sent as is. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Send cookies (login, logout, refresh and SSO signup use the refresh cookie). */
  credentials?: boolean;
  signal?: AbortSignal;
  /** Internal: a replay after a refresh must not refresh again. */
  isRetry?: boolean;
}

interface HttpClientDeps {
  baseUrl: string;
  fetch: typeof fetch;
  onAuthFailure: () => void;
}

function buildUrl(base: string, path: string, query: RequestOptions["query"]) {
  const url = `${base}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The one HTTP client (spec §7/§8): JSON and no-cache headers, bearer token, cookies where the
 * spec says, and on a 401 one shared refresh — concurrent 401s wait for the same refresh — after
 * which each request is replayed once. A failed refresh clears the tokens and goes to login. A
 * refusal carries the server's own sentence as its message, once (see withServerWords).
 */
export function createHttpClient(deps: HttpClientDeps) {
  let refreshing: Promise<string | null> | null = null;

  async function refreshAccessToken(): Promise<string | null> {
    refreshing ??= (async () => {
      try {
        const response = await deps.fetch(`${deps.baseUrl}/refresh`, {
          method: "POST",
          credentials: "include",
          headers: { "Cache-Control": "no-cache", Pragma: "no-cache" },
        });
        if (!response.ok) return null;
        const token = accessTokenOf(await readBody(response));
        if (token) tokenStorage.setAccessToken(token);
        return token;
      } catch {
        return null;
      } finally {
        queueMicrotask(() => {
          refreshing = null;
        });
      }
    })();
    return refreshing;
  }

  /** Sends a request with every rule above and returns the successful Response unread (audio, files). */
  async function send(path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { "Cache-Control": "no-cache", Pragma: "no-cache" };
    const { body } = options;
    let payload: BodyInit | undefined;
    if (body instanceof URLSearchParams || body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const token = tokenStorage.getAccessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    let response: Response;
    try {
      response = await deps.fetch(buildUrl(deps.baseUrl, path, options.query), {
        method: options.method ?? "GET",
        headers,
        body: payload,
        credentials: options.credentials ? "include" : "same-origin",
        signal: options.signal,
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") throw error;
      throw toApiError(0, { detail: error instanceof Error ? error.message : "" });
    }
    if (response.status === 401 && !options.isRetry && path !== "/login" && path !== "/refresh") {
      const renewed = await refreshAccessToken();
      if (renewed) return send(path, { ...options, isRetry: true });
      tokenStorage.clearTokens();
      deps.onAuthFailure();
      throw withServerWords(toApiError(401, await readBody(response)));
    }
    if (!response.ok) throw withServerWords(toApiError(response.status, await readBody(response)));
    return response;
  }

  /** The parsed JSON (or text) answer, unchecked: each API module parses it with the contract's schema. */
  async function request(path: string, options: RequestOptions = {}): Promise<unknown> {
    return readBody(await send(path, options));
  }

  return { request, send, refreshAccessToken };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

export const api = createHttpClient({
  baseUrl: API_BASE_URL,
  // A request the entry already started for this page (head-start.ts) is answered by that request.
  fetch: (input, init) => takeHeadStart(String(input), init) ?? fetch(input, init),
  onAuthFailure: () => {
    if (!window.location.pathname.startsWith("/auth/")) window.location.assign(paths.login);
  },
});

export { ApiError };
