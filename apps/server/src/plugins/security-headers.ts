import type { FastifyInstance } from "fastify";

/**
 * The Content-Security-Policy of the web app and the API docs. The access token lives in
 * localStorage, so the policy's job is to keep any script but our own built files from running:
 * - script-src 'self' blob: — Vite emits only external module scripts (no inline script in
 *   index.html); the live call's AudioWorklet is loaded from a blob: URL the app itself creates.
 * - style-src 'unsafe-inline' — MUI (emotion) injects its styles at run time and index.html
 *   declares the self-hosted font in a <style>; styles cannot run code.
 * - connect-src 'self' blob: plus the public origin's ws(s): — the API, the realtime WebSocket, and
 *   reading back audio the app itself holds in blob: URLs (a saved sample, a recording).
 * - media-src/img-src blob: data: — voice previews and recordings are played from blob: URLs.
 * - frame-ancestors 'none' — no other site may frame the app (clickjacking).
 */
export function contentSecurityPolicy(publicUrl: string): string {
  const origin = new URL(publicUrl);
  const socketOrigin = `${origin.protocol === "https:" ? "wss:" : "ws:"}//${origin.host}`;
  return [
    "default-src 'self'",
    "script-src 'self' blob:",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self' blob: ${socketOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Headers on every answer: the CSP, no framing, no MIME sniffing, no Referer (sign-in and reset
 * links carry their token in the address), and HSTS once the public URL is https.
 */
export function registerSecurityHeaders(app: FastifyInstance, publicUrl: string) {
  const headers: Record<string, string> = {
    "content-security-policy": contentSecurityPolicy(publicUrl),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "microphone=(self), camera=(), geolocation=(), payment=()",
  };
  if (publicUrl.startsWith("https:")) headers["strict-transport-security"] = "max-age=31536000; includeSubDomains";
  app.addHook("onSend", async (_request, reply) => {
    reply.headers(headers);
  });
}
