import { API_BASE_URL } from "../config/env.ts";
import { pathMatches } from "./page-pattern.ts";
import { decodeToken, isExpired, tokenStorage } from "./token-storage.ts";

/**
 * Requests a signed-in page load is sure to make, started by the entry (main.tsx) while the app's
 * code is still downloading, so a returning user's page does not wait for the session restore's
 * round trips (/users/me, /workspaces) and then its own list after all the JavaScript has run.
 * The HTTP client hands each answer to the first matching request (takeHeadStart); everything else
 * about that request (the 401 refresh, errors, the schema check) is as if it had been sent then.
 */
const SESSION = ["/users/me", "/workspaces"];
/**
 * What a page asks for as it opens, by the path (or path pattern, see page-pattern.ts) it is opened
 * at: exactly the URLs its first render's queries send, query string included.
 */
const PAGE_REQUESTS: Record<string, (pathname: string) => string[]> = {
  "/assistants": () => ["/agents"],
  "/knowledge-base": () => ["/documents/list"],
  "/phone-numbers": () => ["/phone-numbers"],
  "/billing": () => ["/billing/usage", "/billing/payments"],
  "/workflows/:workflowId": (pathname) => [pathname],
};

/** The requests the page at `pathname` makes as it opens. */
function pageRequests(pathname: string): string[] {
  const pattern = Object.keys(PAGE_REQUESTS).find((page) => pathMatches(page, pathname));
  return pattern ? (PAGE_REQUESTS[pattern]?.(pathname) ?? []) : [];
}
/** An answer older than this is not handed out: the page sends its own request instead. */
const FRESH_MS = 10_000;

interface HeadStart {
  authorization: string;
  response: Promise<Response>;
  startedAt: number;
}

const started = new Map<string, HeadStart>();

/** Starts the head starts for a page opened at `pathname`, if a usable access token is stored. */
export function startHeadStarts(pathname: string) {
  if (pathname.startsWith("/auth/")) return;
  const token = tokenStorage.getAccessToken();
  const claims = token ? decodeToken(token) : null;
  // An expired token is refreshed by the session restore first: asking with it would only earn 401s.
  if (!token || !claims || isExpired(claims)) return;
  const authorization = `Bearer ${token}`;
  for (const path of [...SESSION, ...pageRequests(pathname)]) {
    const url = `${API_BASE_URL}${path}`;
    const response = fetch(url, {
      headers: { "Cache-Control": "no-cache", Pragma: "no-cache", Authorization: authorization },
      credentials: "same-origin",
    });
    // Whoever takes it handles a failure; one nobody takes must not surface as an unhandled rejection.
    response.catch(() => undefined);
    started.set(url, { authorization, response, startedAt: performance.now() });
  }
}

/**
 * The head start for this request, handed out once: a GET of the same URL with the same token,
 * while fresh. Any other method drops them all, since a change may make their answers stale.
 */
export function takeHeadStart(url: string, init: RequestInit | undefined): Promise<Response> | undefined {
  if ((init?.method ?? "GET") !== "GET") {
    started.clear();
    return undefined;
  }
  const headStart = started.get(url);
  if (!headStart) return undefined;
  started.delete(url);
  const headers = new Headers(init?.headers);
  const fresh = performance.now() - headStart.startedAt <= FRESH_MS;
  return fresh && headers.get("Authorization") === headStart.authorization ? headStart.response : undefined;
}
