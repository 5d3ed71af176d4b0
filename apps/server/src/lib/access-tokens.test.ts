import { afterEach, describe, expect, it, vi } from "vitest";
import { createAccessTokens } from "./access-tokens.ts";

const key = Buffer.alloc(32, 7);
const subject = { id: "user-1", username: "ada", isSuperuser: false, tierId: null, sessionGeneration: 2 };

afterEach(() => {
  vi.useRealTimers();
});

describe("access tokens, verified once a token (issue 35)", () => {
  it("answers a token seen before with the same claims, a copy each time", async () => {
    const tokens = createAccessTokens(key, 900);
    const token = await tokens.forUser(subject, "ws-1", "session-1");
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ id: "user-1", workspace_id: "ws-1", sessionId: "session-1", sessionGeneration: 2 });
    if (first) first.id = "someone-else";
    expect(await tokens.verify(token)).toMatchObject({ id: "user-1" });
  });

  it("still refuses a forged token, a token of another key and an expired one that was verified before", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const tokens = createAccessTokens(key, 60);
    const token = await tokens.forUser(subject, "ws-1", null);
    expect(await tokens.verify(token)).not.toBeNull();
    const [head, body] = token.split(".");
    expect(await tokens.verify(`${head}.${body}.${"A".repeat(43)}`)).toBeNull();
    expect(await createAccessTokens(Buffer.alloc(32, 8), 60).verify(token)).toBeNull();
    vi.setSystemTime(new Date("2026-01-01T00:01:00Z"));
    expect(await tokens.verify(token)).toBeNull();
  });
});
