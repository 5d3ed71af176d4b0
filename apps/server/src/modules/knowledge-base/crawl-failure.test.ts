import { describe, expect, it } from "vitest";
import { BlockedAddressError } from "../../lib/safe-network.ts";
import { crawlFailureReason, PageRefusedError } from "./crawl-failure.ts";

const url = new URL("https://docs.example.com/guide");

/** What undici's fetch rejects with: "fetch failed", the socket's error as its cause. */
const fetchFailed = (cause: unknown) => new TypeError("fetch failed", { cause });
const systemError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe("crawlFailureReason", () => {
  it("names a host DNS does not know", () => {
    const cause = systemError("getaddrinfo ENOTFOUND docs.example.com", { code: "ENOTFOUND" });
    expect(crawlFailureReason(fetchFailed(cause), url, 15)).toBe("the host name docs.example.com was not found (DNS).");
    const again = systemError("getaddrinfo EAI_AGAIN docs.example.com", { code: "EAI_AGAIN" });
    expect(crawlFailureReason(fetchFailed(again), url, 15)).toMatch(/could not be looked up: DNS did not answer/);
  });

  it("says a page that did not answer in time timed out", () => {
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(crawlFailureReason(timeout, url, 15)).toBe("docs.example.com did not answer within 15 seconds (timeout).");
    const connect = systemError("Connect Timeout Error", { code: "UND_ERR_CONNECT_TIMEOUT" });
    expect(crawlFailureReason(fetchFailed(connect), url, 15)).toMatch(/did not answer within 15 seconds/);
  });

  it("names a TLS failure with OpenSSL's words and code", () => {
    const expired = systemError("certificate has expired", { code: "CERT_HAS_EXPIRED" });
    expect(crawlFailureReason(fetchFailed(expired), url, 15)).toBe(
      "the TLS connection to docs.example.com failed: certificate has expired (CERT_HAS_EXPIRED).",
    );
  });

  it("keeps the sentences of a blocked address and of a page it refused", () => {
    const blocked = new BlockedAddressError("docs.example.com", "10.0.0.7", "private address");
    expect(crawlFailureReason(blocked, url, 15)).toBe(blocked.message);
    expect(crawlFailureReason(new PageRefusedError("x answered HTTP 500."), url, 15)).toBe("x answered HTTP 500.");
  });

  it("never leaves only 'fetch failed' when the cause is something else", () => {
    const odd = systemError("something unusual happened", { code: "EWHATEVER" });
    expect(crawlFailureReason(fetchFailed(odd), url, 15)).toBe("something unusual happened.");
  });
});
