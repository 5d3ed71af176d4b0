import type { ApiKeyScope } from "@parley/contract";

/**
 * Routes that start, join or end calls need the "calls" scope whatever their method: a key made
 * to read logs or edit assistants should not be able to ring phones or listen in. Keyed by the
 * route's registered path (`request.routeOptions.url`); the api-keys test checks each still exists.
 */
export const CALL_ROUTES: ReadonlySet<string> = new Set([
  "POST /api/v1/agents/:id/call",
  "GET /api/v1/agents/room/generate_room_token",
  "POST /api/v1/agents/room/:room/remove_participant",
  "POST /api/v1/make_outbound_call",
  "POST /api/v1/initiate_batch_call",
  "POST /api/v1/batch-calls/:id/stop",
  "POST /api/v1/test-suites/:id/runs",
  "POST /api/v1/test-suites/:id/runs/:run_id/cancel",
]);

/** The scope a request needs: calls for the routes above, read for GET/HEAD, write for the rest. */
export function requiredScope(method: string, routeUrl: string | undefined): ApiKeyScope {
  const verb = method.toUpperCase();
  if (routeUrl && CALL_ROUTES.has(`${verb === "HEAD" ? "GET" : verb} ${routeUrl}`)) return "calls";
  return verb === "GET" || verb === "HEAD" ? "read" : "write";
}
