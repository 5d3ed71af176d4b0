import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { listenForMetrics } from "../src/plugins/metrics.ts";
import { call, createTestApp, useTestApp } from "./harness.ts";

describe("security headers (issue 10 item 11)", () => {
  const t = useTestApp({ PUBLIC_URL: "https://parley.example.com" });

  it("sends a CSP fit for the app, no framing, nosniff, no referrer and HSTS on an https public URL", async () => {
    const res = await call(t, "GET", "/api/v1/health");
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'self'");
    // Our own built scripts and the live call's blob: AudioWorklet; never inline or eval'd script.
    expect(csp).toContain("script-src 'self' blob:;");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("connect-src 'self' blob: wss://parley.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["referrer-policy"]).toBe("no-referrer");
    expect(res.headers["strict-transport-security"]).toMatch(/^max-age=\d+/);
    // Errors carry them too.
    expect((await call(t, "GET", "/api/v1/nothing-here")).headers["x-content-type-options"]).toBe("nosniff");
  });

  it("sends no HSTS when the public URL is plain http", async () => {
    const plain = await createTestApp();
    try {
      const res = await call(plain, "GET", "/api/v1/health");
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(String(res.headers["content-security-policy"])).toContain("connect-src 'self' blob: ws://localhost:5173");
    } finally {
      await plain.close();
    }
  });
});

describe("/metrics access (issue 10 item 11)", () => {
  it("asks for METRICS_TOKEN as a bearer token when it is set", async () => {
    const t = await createTestApp({ METRICS_TOKEN: "metrics-token-0123456789" });
    try {
      const none = await call(t, "GET", "/metrics");
      expect(none.statusCode).toBe(401);
      expect(none.json()).toEqual({ detail: "A valid metrics token is required." });
      expect((await call(t, "GET", "/metrics", { token: "metrics-token-wrong-00000" })).statusCode).toBe(401);
      const ok = await call(t, "GET", "/metrics", { token: "metrics-token-0123456789" });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toMatch(/parley_http_request_duration_seconds/);
    } finally {
      await t.close();
    }
  });

  it("without a token, serves only this machine and not through a proxy", async () => {
    const t = await createTestApp();
    try {
      expect((await call(t, "GET", "/metrics")).statusCode).toBe(200);
      const remote = await t.app.inject({ method: "GET", url: "/metrics", remoteAddress: "203.0.113.9" });
      expect(remote.statusCode).toBe(403);
      const proxied = await t.app.inject({
        method: "GET",
        url: "/metrics",
        headers: { "x-forwarded-for": "203.0.113.9" },
      });
      expect(proxied.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });

  it("with METRICS_LISTEN, serves metrics on that address only", async () => {
    const t = await createTestApp({ METRICS_LISTEN: "127.0.0.1:0" });
    try {
      expect(t.config.metricsListen).toEqual({ host: "127.0.0.1", port: 0 });
      expect((await call(t, "GET", "/metrics")).statusCode).toBe(404);
      if (!t.app.metricsRegistry) throw new Error("no metrics registry");
      const server = await listenForMetrics(t.app.metricsRegistry, { host: "127.0.0.1", port: 0 });
      try {
        const address = server.address();
        if (!address || typeof address === "string") throw new Error("not listening on a port");
        const { port } = address;
        const res = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(res.status).toBe(200);
        expect(await res.text()).toMatch(/parley_http_request_duration_seconds/);
        expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
      } finally {
        server.close();
      }
    } finally {
      await t.close();
    }
  });
});

describe("TRUST_PROXY (issue 10 item 9)", () => {
  it("takes a hop count or trusted proxy addresses and CIDR ranges, never 'trust everything'", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "2" }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.4, loopback, ::1" }).trustProxy).toEqual([
      "10.0.0.0/8",
      "192.168.1.4",
      "loopback",
      "::1",
    ]);
    expect(() => loadConfig({ TRUST_PROXY: "proxy.example.com" })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: "10.0.0.0/40" })).toThrow(/TRUST_PROXY/);
  });

  it.each([["1"], ["127.0.0.1"]])(
    "with TRUST_PROXY=%s a client cannot pick its own rate-limit address",
    async (trustProxy) => {
      const t = await createTestApp({ TRUST_PROXY: trustProxy, LOGIN_RATE_LIMIT_PER_IP: "2" });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          const res = await t.app.inject({
            method: "POST",
            url: "/api/v1/login",
            payload: `username=nobody${i}&password=wrong-password`,
            // The client forges the first entry; the proxy (the socket peer) appends the address it saw.
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              "x-forwarded-for": `198.51.100.${i}, 203.0.113.7`,
            },
          });
          statuses.push(res.statusCode);
        }
        expect(statuses).toEqual([401, 401, 429]);
      } finally {
        await t.close();
      }
    },
  );
});
