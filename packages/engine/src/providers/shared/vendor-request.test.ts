import { describe, expect, it } from "vitest";
import { ProviderError } from "../provider-error.ts";
import type { NetworkDeps } from "../types.ts";
import { vendorRequest } from "./vendor-request.ts";

/** A network whose every request fails with `error`, as the server's safe network rejects. */
const failingWith = (error: unknown): NetworkDeps => ({
  fetch: async () => {
    throw error;
  },
});

/** An error shaped like the server's policy refusals (lib/safe-network.ts, lib/address-policy.ts). */
function refusal(name: string, code: string, message: string): Error {
  const error = new Error(message) as Error & { code: string };
  error.name = name;
  error.code = code;
  return error;
}

const attempt = (net: NetworkDeps) =>
  vendorRequest({ provider: "acme", url: "https://api.acme.test/v1/speak", net }).catch((e: unknown) => e);

describe("vendorRequest failures", () => {
  it("does not mark a redirect to another origin as retryable", async () => {
    const error = await attempt(
      failingWith(
        refusal(
          "CrossOriginRedirectError",
          "ERR_PARLEY_CROSS_ORIGIN_REDIRECT",
          "Refusing to follow a redirect from https://api.acme.test to https://elsewhere.test: the request's authorization header is only sent to https://api.acme.test.",
        ),
      ),
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      retryable: false,
      message: expect.stringContaining("Refusing to follow a redirect"),
    });
  });

  it("does not mark a blocked address as retryable, also when fetch wraps it", async () => {
    const blocked = refusal(
      "BlockedAddressError",
      "ERR_PARLEY_BLOCKED_ADDRESS",
      "Refusing to connect to 10.0.0.5: private address. Set PARLEY_ALLOWED_PRIVATE_HOSTS to allow it.",
    );
    const error = await attempt(failingWith(new TypeError("fetch failed", { cause: blocked })));
    expect(error).toMatchObject({ retryable: false, message: expect.stringContaining("Refusing to connect") });
  });

  it("keeps an unreachable host retryable", async () => {
    const unreachable = new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED 127.0.0.1:9") });
    const error = await attempt(failingWith(unreachable));
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining("ECONNREFUSED") });
  });
});
