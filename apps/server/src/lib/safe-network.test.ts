import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebSocketServer } from "ws";
import { loadConfig } from "../config.ts";
import { blockedReason } from "./address-policy.ts";
import { CrossOriginRedirectError, createSafeNetwork, type Resolver } from "./safe-network.ts";

let server: Server;
let port = 0;
/** The headers of every request the test server received, by path. */
const received: { url: string; headers: IncomingHttpHeaders }[] = [];
/** Connections the test server accepted, and the answers it holds back until a test lets them go. */
let connections = 0;
const held: (() => void)[] = [];

/** Test names: allowed.test and internal.test, resolved without DNS. */
const fakeResolve: Resolver = async (hostname) => {
  if (hostname === "allowed.test") return [{ address: "127.0.0.1", family: 4 }];
  if (hostname === "internal.test") return [{ address: "10.0.0.5", family: 4 }];
  if (hostname === "mixed.test")
    return [
      { address: "93.184.215.14", family: 4 },
      { address: "192.168.1.10", family: 4 },
    ];
  throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
};

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push({ url: req.url ?? "", headers: req.headers });
    if (req.url === "/to-loopback") {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
    } else if (req.url?.startsWith("/to-other-origin")) {
      // Same address, another origin (the host name differs): what a function's host answering 307 looks like.
      res.writeHead(Number(req.url.split("/")[2] ?? 307), { location: `http://127.0.0.1:${port}/landed` }).end();
    } else if (req.url === "/to-same-origin") {
      res.writeHead(307, { location: "/landed" }).end();
    } else if (req.url === "/hold") {
      held.push(() => res.writeHead(200, { "content-type": "text/plain" }).end("released"));
    } else if (req.url?.startsWith("/loop")) {
      res.writeHead(307, { location: `/loop${Number(req.url.slice(5) || 0) + 1}` }).end();
    } else {
      res.writeHead(200, { "content-type": "text/plain" }).end(`hello from ${req.url}`);
    }
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const deny = () => createSafeNetwork({ allowedPrivate: [], resolve: fakeResolve });

describe("safe fetch without an allow-list", () => {
  it.each([
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254: link-local address"],
    ["http://10.1.2.3/", "10.1.2.3: private address"],
    ["http://192.168.1.1/", "192.168.1.1: private address"],
    ["http://100.64.0.1/", "100.64.0.1: shared (CGNAT) address"],
    ["http://[::1]/", "::1: loopback address"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1: IPv4-mapped IPv6 address"],
    ["http://0.0.0.0/", "0.0.0.0: unspecified address"],
    ["http://224.0.0.1/", "224.0.0.1: multicast address"],
    ["http://192.0.2.1/", "192.0.2.1: documentation address"],
    ["http://[2001:db8::1]/", "2001:db8::1: documentation address"],
  ])("refuses %s", async (url, reason) => {
    await expect(deny().fetch(url)).rejects.toThrow(
      `Refusing to connect to ${reason}. Set PARLEY_ALLOWED_PRIVATE_HOSTS to allow it.`,
    );
  });

  it("refuses a host name that resolves to a private address", async () => {
    await expect(deny().fetch("http://internal.test/")).rejects.toThrow(
      "Refusing to connect to internal.test (10.0.0.5): private address.",
    );
  });

  it("refuses a host name when any one of its addresses is private", async () => {
    await expect(deny().fetch("http://mixed.test/")).rejects.toThrow("mixed.test (192.168.1.10)");
  });

  it("refuses localhost through the real resolver", async () => {
    const network = createSafeNetwork({ allowedPrivate: [] });
    await expect(network.fetch(`http://localhost:${port}/`)).rejects.toThrow(/Refusing to connect to localhost \(/);
  });

  it("refuses a redirect from an allowed host to 127.0.0.1", async () => {
    const network = createSafeNetwork({ allowedPrivate: ["allowed.test"], resolve: fakeResolve });
    const first = await network.fetch(`http://allowed.test:${port}/plain`);
    expect(await first.text()).toBe("hello from /plain");
    await expect(network.fetch(`http://allowed.test:${port}/to-loopback`)).rejects.toThrow(
      "Refusing to connect to 127.0.0.1: loopback address",
    );
  });

  it("only fetches http and https", async () => {
    await expect(deny().fetch("file:///etc/passwd")).rejects.toThrow("Only http and https URLs can be fetched");
  });
});

describe("safe fetch with PARLEY_ALLOWED_PRIVATE_HOSTS", () => {
  it("reaches an allowed address, by IP and by CIDR range", async () => {
    for (const allowedPrivate of [["127.0.0.1"], ["127.0.0.0/8"]]) {
      const res = await createSafeNetwork({ allowedPrivate }).fetch(`http://127.0.0.1:${port}/x`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("hello from /x");
    }
  });

  it("follows a redirect to an allowed address", async () => {
    const network = createSafeNetwork({ allowedPrivate: ["allowed.test", "127.0.0.1"], resolve: fakeResolve });
    const res = await network.fetch(`http://allowed.test:${port}/to-loopback`);
    expect(await res.text()).toBe("hello from /secret");
  });

  it("allows a host name resolving to a private address when named", async () => {
    const network = createSafeNetwork({ allowedPrivate: ["allowed.test"], resolve: fakeResolve });
    expect((await network.fetch(`http://allowed.test:${port}/`)).status).toBe(200);
  });

  it("stops after five redirects", async () => {
    const network = createSafeNetwork({ allowedPrivate: ["127.0.0.1"] });
    await expect(network.fetch(`http://127.0.0.1:${port}/loop0`)).rejects.toThrow("Too many redirects");
    const manual = await network.fetch(`http://127.0.0.1:${port}/loop0`, { redirect: "manual" });
    expect(manual.status).toBe(307);
  });
});

describe("safe fetch redirected to another origin", () => {
  const network = () => createSafeNetwork({ allowedPrivate: ["allowed.test", "127.0.0.1"], resolve: fakeResolve });
  const landed = () => received.filter((r) => r.url === "/landed");

  it.each([
    ["x-api-key", { "X-Api-Key": "fn-secret-key" }],
    ["authorization", { Authorization: "Bearer sk-secret" }],
    ["cookie", { Cookie: "session=secret" }],
    ["x-parley-signature", { "X-Parley-Signature": "sha256=abc" }],
  ])("refuses to carry %s there, and never reaches it", async (name, headers) => {
    received.length = 0;
    for (const status of [301, 302, 303, 307, 308]) {
      await expect(
        network().fetch(`http://allowed.test:${port}/to-other-origin/${status}`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: "{}",
        }),
      ).rejects.toThrow(
        `Refusing to follow a redirect from http://allowed.test:${port} to http://127.0.0.1:${port}: ` +
          `the request's ${name} header is only sent to http://allowed.test:${port}.`,
      );
    }
    expect(landed()).toEqual([]);
  });

  it("names every header it would not carry, and says where they belong", async () => {
    const error = await network()
      .fetch(`http://allowed.test:${port}/to-other-origin/307`, { headers: { "x-api-key": "k", "x-trace": "on" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrossOriginRedirectError);
    // The code the engine's vendor requests read to never retry it (as they do a blocked address).
    expect(error).toMatchObject({ code: "ERR_PARLEY_CROSS_ORIGIN_REDIRECT" });
    expect(error).toMatchObject({
      from: `http://allowed.test:${port}`,
      to: `http://127.0.0.1:${port}`,
      headers: ["x-api-key", "x-trace"],
    });
  });

  it("follows it when the request carries only headers that describe it", async () => {
    received.length = 0;
    const headers = {
      accept: "application/json",
      "accept-language": "en",
      "content-type": "application/json",
      "user-agent": "Parley-Test",
    };
    const res = await network().fetch(`http://allowed.test:${port}/to-other-origin/307`, {
      method: "POST",
      headers,
      body: "{}",
    });
    expect(await res.text()).toBe("hello from /landed");
    expect(landed()[0]?.headers).toMatchObject(headers);
  });

  it("keeps every header on a redirect within the origin", async () => {
    received.length = 0;
    const res = await network().fetch(`http://127.0.0.1:${port}/to-same-origin`, { headers: { "x-api-key": "k" } });
    expect(await res.text()).toBe("hello from /landed");
    expect(landed()[0]?.headers["x-api-key"]).toBe("k");
  });
});

describe("safe fetch reusing connections", () => {
  it("reuses checked connections, and checks each new one against what the name resolves to then", async () => {
    let address = "127.0.0.1";
    let resolved = 0;
    const resolve: Resolver = async () => {
      resolved += 1;
      return [{ address, family: 4 }];
    };
    const network = createSafeNetwork({ allowedPrivate: ["127.0.0.1"], resolve });
    const before = connections;
    for (let i = 0; i < 6; i += 1) {
      expect(await (await network.fetch(`http://moving.test:${port}/x`)).text()).toBe("hello from /x");
    }
    // Kept alive (undici may open a second one while the first is being released), each one checked.
    const pooled = connections - before;
    expect(pooled).toBeLessThanOrEqual(2);
    expect(resolved).toBe(pooled);
    // The name now points inside the network: the open connections (to the address checked) may carry
    // requests, but one more, needed while they are busy, is checked anew and refused.
    address = "10.0.0.5";
    const refusals: unknown[] = [];
    const attempts = [0, 1, 2].map(() =>
      network.fetch(`http://moving.test:${port}/hold`).then(
        (res) => res.text(),
        (error: unknown) => {
          refusals.push(error);
          return "refused";
        },
      ),
    );
    await vi.waitFor(() => expect(held.length + refusals.length).toBe(3));
    for (const release of held.splice(0)) release();
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === "released").length).toBeLessThanOrEqual(pooled);
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    for (const error of refusals) expect(String(error)).toContain("Refusing to connect to moving.test (10.0.0.5)");
    expect(connections - before).toBe(pooled);
  });

  it("keeps connections per origin: a key sent to one host never rides on another's requests", async () => {
    received.length = 0;
    const network = createSafeNetwork({ allowedPrivate: ["allowed.test", "127.0.0.1"], resolve: fakeResolve });
    const before = connections;
    // Both names are the same address and port; only the first was given the key.
    await (
      await network.fetch(`http://allowed.test:${port}/keyed`, { headers: { authorization: "Bearer sk" } })
    ).text();
    await (await network.fetch(`http://127.0.0.1:${port}/bare`)).text();
    await (
      await network.fetch(`http://allowed.test:${port}/keyed`, { headers: { authorization: "Bearer sk" } })
    ).text();
    expect(connections - before).toBe(2);
    expect(received.map((r) => [r.url, r.headers.authorization, r.headers.host])).toEqual([
      ["/keyed", "Bearer sk", `allowed.test:${port}`],
      ["/bare", undefined, `127.0.0.1:${port}`],
      ["/keyed", "Bearer sk", `allowed.test:${port}`],
    ]);
  });
});

describe("safe WebSocket", () => {
  it("refuses a private address and connects once allowed", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((r) => wss.once("listening", r));
    wss.on("connection", (socket) => socket.send("welcome"));
    const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`;
    try {
      expect(() => deny().openWebSocket?.(url, {})).toThrow("Refusing to connect to 127.0.0.1: loopback address");

      const named = deny().openWebSocket?.(url.replace("127.0.0.1", "internal.test"), {});
      const failure = await new Promise<unknown>((resolve) => named?.addEventListener("error", resolve));
      expect(String((failure as { message?: string }).message)).toContain("internal.test (10.0.0.5)");

      const allowed = createSafeNetwork({ allowedPrivate: ["127.0.0.1"] }).openWebSocket?.(url, {});
      const message = await new Promise((resolve) => allowed?.addEventListener("message", (e) => resolve(e.data)));
      expect(String(message)).toBe("welcome");
      allowed?.close();
    } finally {
      await new Promise((r) => wss.close(r));
    }
  });
});

describe("address policy and configuration", () => {
  it("lets public addresses through", () => {
    expect(blockedReason("93.184.215.14")).toBeNull();
    expect(blockedReason("2606:4700::1111")).toBeNull();
    // Neighbours of the refused ranges stay reachable.
    expect(blockedReason("192.0.3.1")).toBeNull();
    expect(blockedReason("198.51.101.1")).toBeNull();
    expect(blockedReason("203.0.114.1")).toBeNull();
    expect(blockedReason("2001:db9::1")).toBeNull();
  });

  it.each([
    ["192.0.2.10", "documentation address"],
    ["198.51.100.7", "documentation address"],
    ["203.0.113.200", "documentation address"],
    ["100.127.255.254", "shared (CGNAT) address"],
    ["198.18.0.1", "benchmarking address"],
    ["198.19.255.255", "benchmarking address"],
    ["192.88.99.1", "6to4 relay address"],
    ["255.255.255.255", "reserved address"],
    ["2001:db8::1", "documentation address"],
    ["3fff::1", "documentation address"],
    ["2001:2::1", "reserved address"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved address"],
    ["2002:a00:1::1", "6to4 address"],
    ["100::1", "discard-only address"],
    ["64:ff9b:1::a00:1", "IPv4-translated IPv6 address"],
  ])("refuses %s as a %s", (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it("parses PARLEY_ALLOWED_PRIVATE_HOSTS and stops on a bad entry naming the variable", () => {
    const base = { PARLEY_SECRET_KEY: "x".repeat(40) };
    const config = loadConfig({ ...base, PARLEY_ALLOWED_PRIVATE_HOSTS: " 127.0.0.1, 10.0.0.0/8 ,ollama.lan,::1" });
    expect(config.allowedPrivateHosts).toEqual(["127.0.0.1", "10.0.0.0/8", "ollama.lan", "::1"]);
    expect(() => loadConfig({ ...base, PARLEY_ALLOWED_PRIVATE_HOSTS: "10.0.0.0/40" })).toThrow(
      /PARLEY_ALLOWED_PRIVATE_HOSTS: "10.0.0.0\/40" is not a host name/,
    );
  });
});
