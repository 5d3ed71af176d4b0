import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("starts with no configuration at all", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: "./data",
      databaseUrl: undefined,
      publicUrl: "http://localhost:3000",
    });
    expect(config.sso).toEqual({ google: undefined, microsoft: undefined });
  });

  it("names every bad variable", () => {
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", PARLEY_SECRET_KEY: "short", PUBLIC_URL: "ftp://x" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      for (const name of ["PORT", "DATABASE_URL", "PARLEY_SECRET_KEY", "PUBLIC_URL"]) expect(message).toContain(name);
    }
  });

  it("requires the admin email and password together, and an SSO client id with its secret", () => {
    expect(() => loadConfig({ PARLEY_ADMIN_EMAIL: "a@b.co" })).toThrow(/PARLEY_ADMIN_EMAIL and PARLEY_ADMIN_PASSWORD/);
    expect(() => loadConfig({ GOOGLE_CLIENT_SECRET: "s" })).toThrow(/GOOGLE_CLIENT_ID/);
    expect(loadConfig({ GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "s" }).sso.google?.issuer).toBe(
      "https://accounts.google.com",
    );
  });

  it("names the node and reads DRAIN_TIMEOUT as seconds, or with ms/s/m", () => {
    const single = loadConfig({ PORT: "3100" }).node;
    expect(single.routed).toBe(false);
    expect(single.id).toMatch(/^[a-z0-9][a-z0-9-]*-3100$/);
    expect(single.drainTimeoutMs).toBe(600_000);
    expect(loadConfig({ NODE_ID: "node-2" }).node).toMatchObject({ id: "node-2", routed: true });
    for (const [given, ms] of [
      ["90", 90_000],
      ["90s", 90_000],
      ["2m", 120_000],
      ["500ms", 500],
    ] as const) {
      expect(loadConfig({ DRAIN_TIMEOUT: given }).node.drainTimeoutMs).toBe(ms);
    }
    expect(() => loadConfig({ DRAIN_TIMEOUT: "ten minutes" })).toThrow(/DRAIN_TIMEOUT: must be a duration/);
    expect(() => loadConfig({ NODE_ID: "Node 1" })).toThrow(/NODE_ID: must be 1–32 lowercase/);
  });
});
