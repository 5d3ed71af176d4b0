import { WIDGET_TEXTS } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";

/**
 * A page names its widget by the public key alone, so whatever it sends as the key — well formed or
 * not — either names an available widget or gets the one answer docs/call-widgets.md promises:
 * 404 "This call widget is not available.", with no CORS header and nothing that says why.
 */

const SHOP = "https://shop.example.com";
const t = useTestApp();

/** Keys of every shape a page (or a script probing the API) might send, URL-encoded as sent. */
const MALFORMED_KEYS: Record<string, string> = {
  "no prefix": "abcdefghijklmnopqrstuvwx",
  "prefix only": "pw_",
  "too short": "pw_abc",
  "too long for a key": `pw_${"a".repeat(65)}`,
  "longer than the router's parameter limit": `pw_${"a".repeat(300)}`,
  "a dot inside": "pw_abcdefgh.ijklmnopqrst",
  "an encoded space inside": "pw_abcdefgh%20ijklmnopqrst",
  "an encoded NUL byte": "pw_abcdefgh%00ijklmnopqrst",
  "an encoded slash": "pw_abcdefgh%2Fijklmnopqrst",
  "non-ASCII letters": `pw_${"%C3%A9".repeat(16)}`,
  empty: "",
  "a path inside": "pw_abcdefgh/ijklmnopqrst",
};
/** Well formed, but no widget holds it: the answer every malformed key must match. */
const UNKNOWN_KEY = `pw_${"Q".repeat(32)}`;

const ROUTES = [
  ["GET", (key: string) => `/api/v1/widget/${key}`],
  ["POST", (key: string) => `/api/v1/widget/${key}/calls`],
  ["OPTIONS", (key: string) => `/api/v1/widget/${key}/calls`],
] as const;

function fromShop(method: (typeof ROUTES)[number][0], url: string) {
  return t.app.inject({ method, url, remoteAddress: "203.0.113.9", headers: { origin: SHOP } });
}

describe("public widget routes and malformed keys", () => {
  for (const [method, urlOf] of ROUTES) {
    it(`${method} answers an unknown key with 404 "This call widget is not available."`, async () => {
      const res = await fromShop(method, urlOf(UNKNOWN_KEY));
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: WIDGET_TEXTS.unavailable });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    });

    for (const [shape, key] of Object.entries(MALFORMED_KEYS)) {
      it(`${method} answers a malformed key (${shape}) exactly as an unknown one`, async () => {
        const res = await fromShop(method, urlOf(key));
        expect(res.statusCode, `${method} ${urlOf(key)}`).toBe(404);
        expect(res.json()).toEqual({ detail: WIDGET_TEXTS.unavailable });
        expect(res.headers["access-control-allow-origin"]).toBeUndefined();
      });
    }
  }

  it("still serves a well-formed key that names a widget, and the embed script beside the keys", async () => {
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, {});
    const created = await call(t, "POST", "/api/v1/call-widgets", {
      token: user.token,
      body: { name: "Shop", assistant_id: agentId, allowed_origins: [SHOP] },
    });
    const { public_key: key } = created.json<{ public_key: string }>();
    const config = await fromShop("GET", `/api/v1/widget/${key}`);
    expect(config.statusCode).toBe(200);
    expect(config.headers["access-control-allow-origin"]).toBe(SHOP);
    const preflight = await fromShop("OPTIONS", `/api/v1/widget/${key}/calls`);
    expect(preflight.statusCode).toBe(204);
    // The script is a static route beside the keyed ones: built or not, it is never taken for a key.
    const script = await t.app.inject({ method: "GET", url: "/api/v1/widget/embed.js" });
    expect(script.body).not.toContain(WIDGET_TEXTS.unavailable);
  });
});
