import { describe, expect, it } from "vitest";
import { recordingNetwork } from "../../testing/telephony/recording-fetch.ts";
import { accountUrl } from "./account.ts";
import { requireCredential } from "./credentials.ts";
import { errorKind, telephonyJson, telephonyRequest } from "./rest.ts";
import { TelephonyError } from "./types.ts";

describe("telephony REST requests", () => {
  it("sends forms and JSON with their content types", async () => {
    const { net, requests } = recordingNetwork();
    await telephonyRequest({ provider: "x", url: "https://api.example/a", form: new URLSearchParams({ A: "1" }), net });
    await telephonyRequest({ provider: "x", url: "https://api.example/b", method: "PUT", json: { b: 2 }, net });
    await telephonyRequest({ provider: "x", url: "https://api.example/c", net });
    expect(requests.map((r) => [r.method, r.headers["content-type"], r.body])).toEqual([
      ["POST", "application/x-www-form-urlencoded", "A=1"],
      ["PUT", "application/json", '{"b":2}'],
      ["GET", undefined, ""],
    ]);
  });

  it("classifies refusals by status, keeping the vendor's sentence", async () => {
    expect([401, 403, 404, 408, 429, 500, 503, 400, 422].map(errorKind)).toEqual([
      "credentials",
      "credentials",
      "not_found",
      "unavailable",
      "unavailable",
      "unavailable",
      "unavailable",
      "rejected",
      "rejected",
    ]);
    const { net } = recordingNetwork(() => ({
      status: 422,
      json: { errors: [{ title: "Invalid value", detail: "to is required" }] },
    }));
    const error = await telephonyJson({ provider: "x", url: "https://api.example/a", net }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TelephonyError);
    expect(error).toMatchObject({
      provider: "x",
      kind: "rejected",
      status: 422,
      message: "x: HTTP 422: to is required",
    });
  });

  it("reports an unreachable vendor as unavailable", async () => {
    const net = {
      fetch: () =>
        Promise.reject(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") })),
    };
    await expect(telephonyJson({ provider: "x", url: "http://127.0.0.1:9/", net })).rejects.toMatchObject({
      kind: "unavailable",
      message: "x: network error: fetch failed: connect ECONNREFUSED 127.0.0.1:9",
    });
  });

  it("reads an empty success body as {}", async () => {
    const net = { fetch: async () => new Response(null, { status: 204 }) };
    expect(await telephonyJson({ provider: "x", url: "https://api.example/", net })).toEqual({});
  });
});

describe("telephony accounts", () => {
  const net = recordingNetwork().net;

  it("aims URLs at the override, then the base_url credential, else leaves them", () => {
    const url = "https://api.example/v1/things?page=2";
    expect(accountUrl({ credentials: {}, net }, url)).toBe(url);
    expect(accountUrl({ credentials: { base_url: "http://127.0.0.1:5000/" }, net }, url)).toBe(
      "http://127.0.0.1:5000/v1/things?page=2",
    );
    expect(accountUrl({ credentials: { base_url: "http://a" }, net, baseUrl: "http://b" }, url)).toBe(
      "http://b/v1/things?page=2",
    );
  });

  it("names a missing credential as a credentials error", () => {
    expect(() => requireCredential("twilio", { credentials: { account_sid: " " }, net }, "account_sid")).toThrow(
      new TelephonyError("twilio", "credentials", "No Account SID for Twilio. Add one on the Integrations page."),
    );
  });
});
