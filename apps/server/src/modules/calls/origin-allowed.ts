/**
 * A browser sends Origin on every WebSocket; a page on another site must not open calls with a
 * token it got hold of. Allowed: PUBLIC_URL's origin, or the host the request itself was sent to
 * (same-origin, e.g. 127.0.0.1 when PUBLIC_URL says localhost). No Origin: a non-browser client.
 */
export function originAllowed(origin: string | undefined, publicUrl: string, requestHost: string): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return url.origin === new URL(publicUrl).origin || url.host === requestHost;
  } catch {
    return false;
  }
}
