import { describe, expect, it } from "vitest";
import { answerChallenge, createNonceIssuer, digestHa1, parseDigest, verifyDigest } from "./digest.ts";

describe("digest authentication", () => {
  it("accepts the client's answer to a challenge and rejects a wrong password", () => {
    const nonces = createNonceIssuer("secret");
    const challenge = nonces.challenge("example.test");
    const request = { method: "REGISTER", uri: "sip:example.test" };
    const good = parseDigest(answerChallenge(challenge, { username: "1001", password: "pw" }, request) ?? "");
    const bad = parseDigest(answerChallenge(challenge, { username: "1001", password: "nope" }, request) ?? "");
    const ha1 = digestHa1("1001", "example.test", "pw");
    expect(good && verifyDigest(good, { method: "REGISTER", realm: "example.test", ha1 }, nonces)).toBe("ok");
    expect(bad && verifyDigest(bad, { method: "REGISTER", realm: "example.test", ha1 }, nonces)).toBe("invalid");
  });

  it("calls an old nonce stale and a forged one invalid", () => {
    let now = 1_000_000;
    const nonces = createNonceIssuer("secret", 60_000, () => now);
    const challenge = nonces.challenge("r");
    const nonce = parseDigest(challenge)?.nonce ?? "";
    expect(nonces.nonceValid(nonce)).toBe(true);
    now += 61_000;
    expect(nonces.nonceValid(nonce)).toBe(false);
    expect(createNonceIssuer("other").nonceValid(nonce)).toBe(false);
  });

  it("matches RFC 2617's worked example", () => {
    // RFC 2617 §3.5 (HTTP, but the same arithmetic).
    const ha1 = digestHa1("Mufasa", "testrealm@host.com", "Circle Of Life");
    expect(ha1).toBe("939e7578ed9e3c518a452acee763bce9");
  });
});
