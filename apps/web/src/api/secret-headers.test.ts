import { describe, expect, it } from "vitest";
import { headersNeedRetyping } from "./secret-headers.ts";

const saved = { url: "https://hooks.example.com/weather", headers: { "X-Api-Key": "…6789", Accept: "••••" } };

describe("headersNeedRetyping", () => {
  it("lets masked values stay while the host stays", () => {
    expect(headersNeedRetyping(saved, { url: "https://hooks.example.com/other", headers: saved.headers })).toBe(false);
  });

  it("asks for the values again when the URL moves to another host", () => {
    expect(headersNeedRetyping(saved, { url: "https://else.example.net/weather", headers: saved.headers })).toBe(true);
    expect(headersNeedRetyping(saved, { url: "http://hooks.example.com/weather", headers: { Accept: "••••" } })).toBe(
      true,
    );
  });

  it("is content with new values, no headers, or a new item", () => {
    const moved = "https://else.example.net/weather";
    expect(headersNeedRetyping(saved, { url: moved, headers: { "X-Api-Key": "new-key", Accept: "json" } })).toBe(false);
    expect(headersNeedRetyping(saved, { url: moved, headers: {} })).toBe(false);
    expect(headersNeedRetyping(null, { url: moved, headers: { "X-Api-Key": "…6789" } })).toBe(false);
  });
});
