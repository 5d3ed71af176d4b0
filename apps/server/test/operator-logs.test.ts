import { createSocket, type Socket } from "node:dgram";
import { createServer } from "node:net";
import { WEBHOOK_MAX_ATTEMPTS } from "@parley/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { createLogger } from "../src/lib/log-options.ts";
import { createMailer } from "../src/lib/mailer.ts";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { syncSipTrunk } from "../src/modules/sip/trunk-registrations.ts";
import { WEBHOOK_QUEUE } from "../src/modules/webhooks/deliveries.ts";
import { call, signedInUser, type TestApp } from "./harness.ts";
import { createLoggedTestApp, type LogLines } from "./support/logged-app.ts";
import { type LoopbackServer, startReceiver } from "./support/loopback.ts";
import { rtpWindow } from "./support/sip-peers.ts";
import { until } from "./support/until.ts";

/**
 * Issue 27 item 4: what an operator reads in the server's log when something outside a live call
 * fails — a carrier, a SIP trunk, a webhook receiver, the SMTP server — at warn or error, with the
 * workspace, provider and status, and never a secret.
 */

// Secrets the tests hand to the server; none may appear in any line it writes.
const CARRIER_TOKEN = "carrier-auth-token-0123456789abcdef";
const TRUNK_PASSWORD = "trunk-password-never-logged";
const SMTP_PASSWORD = "smtp-password-never-logged";

let t: TestApp & { log: LogLines };
let vendor: LoopbackServer & { received: unknown[] };
let owner: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  // A carrier API at a wrong address: every request is the vendor's 404 (as Twilio answers a bad path).
  vendor = await startReceiver((request, res) => {
    if (request.url.startsWith("/hook")) return res.writeHead(503).end("down");
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ code: 20404, message: `The requested resource ${request.url} was not found`, status: 404 }),
    );
  });
  t = await createLoggedTestApp({
    PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    SIP_PORT: "0",
    SIP_HOST: "127.0.0.1",
    ...rtpWindow(),
  });
  owner = await signedInUser(t);
}, 240_000);

afterAll(async () => {
  await t?.close();
  await vendor?.close();
});

const entries = () => t.log.entries();
const withMessage = (pattern: RegExp) => entries().filter((e) => typeof e.msg === "string" && pattern.test(e.msg));
const LEVEL = { info: 30, warn: 40, error: 50 } as const;

describe("failures an operator sees in the log", () => {
  it("a carrier that fails the import logs the 5xx request at error with the request id, workspace and the vendor's status", async () => {
    const res = await call(t, "POST", "/api/v1/phone-numbers/providers/import-numbers", {
      token: owner.token,
      body: {
        provider: "twilio",
        agent_id: null,
        credentials: {
          account_sid: "AC11111111111111111111111111111111",
          auth_token: CARRIER_TOKEN,
          base_url: vendor.origin,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(502);
    const requestId = res.headers["x-request-id"];
    const [line] = withMessage(/^request failed$/);
    expect(line).toMatchObject({
      level: LEVEL.error,
      reqId: requestId,
      workspaceId: owner.workspaceId,
      res: { statusCode: 502 },
      req: { method: "POST", url: "/api/v1/phone-numbers/providers/import-numbers" },
    });
    expect(String(line?.detail)).toMatch(/Twilio answered HTTP 404/);
    // The carrier's own refusal is a line of its own, with the provider and the vendor's status.
    const [carrier] = withMessage(/^the carrier could not list the account's numbers$/);
    expect(carrier).toMatchObject({
      level: LEVEL.warn,
      workspaceId: owner.workspaceId,
      provider: "twilio",
      status: 404,
    });
    // A client's own mistake stays at info: a wrong password is not a server failure.
    const wrong = await call(t, "POST", "/api/v1/login", { body: { username: "nobody", password: "wrong" } });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.statusCode).toBeLessThan(500);
    const wrongLine = entries().find((e) => e.reqId === wrong.headers["x-request-id"] && e.msg === "request completed");
    expect(wrongLine?.level).toBe(LEVEL.info);
  }, 120_000);

  it("a webhook receiver's failure logs each attempt at warn with the endpoint's host, the event and the attempt", async () => {
    const created = await call(t, "POST", "/api/v1/webhooks", {
      token: owner.token,
      body: { url: `${vendor.origin}/hook?token=receiver-secret-value`, events: ["call.started"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpointId = created.json<{ id: string }>().id;
    expect((await call(t, "POST", `/api/v1/webhooks/${endpointId}/test`, { token: owner.token })).statusCode).toBe(202);
    const [line] = await until(
      async () => withMessage(/^webhook delivery attempt failed$/).filter((e) => e.endpointId === endpointId),
      (found) => found.length > 0,
      "the failed attempt's log line",
    );
    expect(line).toMatchObject({
      level: LEVEL.warn,
      workspaceId: owner.workspaceId,
      host: new URL(vendor.origin).host,
      event: "test",
      attempt: 1,
      status: 503,
    });
    // The later attempts are due in minutes: moved to now, until the delivery is given up at error.
    const givenUp = () => withMessage(/^webhook delivery given up/).filter((e) => e.endpointId === endpointId);
    await until(
      async () => {
        await t.ctx.db
          .update(jobs)
          .set({ runAt: sql`now()` })
          .where(and(eq(jobs.queue, WEBHOOK_QUEUE), eq(jobs.status, "queued")));
        t.app.jobs.wake();
        return givenUp();
      },
      (found) => found.length > 0,
      "the given-up delivery's log line",
    );
    expect(givenUp()[0]).toMatchObject({ level: LEVEL.error, attempt: WEBHOOK_MAX_ATTEMPTS, status: 503 });
    expect(t.log.lines.join("")).not.toContain("receiver-secret-value");
  }, 120_000);

  it("a SIP trunk that refuses Parley's registration logs a warning with the number, workspace, registrar and status", async () => {
    const carrier = await refusingRegistrar();
    try {
      const record = await insertPhoneNumber(
        t.ctx.db,
        { workspaceId: owner.workspaceId },
        {
          number: "+14155550177",
          provider: "sip_trunk",
          sipTrunk: {
            sip_host: `127.0.0.1:${carrier.port}`,
            transport: "udp",
            username: "parley-trunk",
            register: true,
            allowed_ips: [],
          },
          sipPassword: t.ctx.secrets.encrypt(TRUNK_PASSWORD),
        },
      );
      expect(await syncSipTrunk(t.ctx, record.id, record)).toBe(403);
      const [line] = withMessage(/SIP trunk refused Parley's registration/);
      expect(line).toMatchObject({
        level: LEVEL.warn,
        numberId: record.id,
        workspaceId: owner.workspaceId,
        provider: "sip_trunk",
        registrar: `127.0.0.1:${carrier.port}`,
        status: 403,
      });
      await syncSipTrunk(t.ctx, record.id, null);
    } finally {
      carrier.socket.close();
    }
  }, 120_000);

  it("an email the SMTP server cannot take logs an error with the server's host, never SMTP_URL's password", async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const log = createLogger({ level: "info", format: "json" }, { write: (line: string) => lines.push(line) });
    const mailer = createMailer({
      smtpUrl: `smtp://parley:${SMTP_PASSWORD}@127.0.0.1:${port}`,
      from: "p@example.com",
      log,
    });
    await expect(mailer.send({ to: "ada@example.com", subject: "Sign in", text: "a link" })).rejects.toThrow();
    const [line = {}] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(line).toMatchObject({
      level: LEVEL.error,
      msg: "email could not be sent",
      smtpHost: `127.0.0.1:${port}`,
      email: { to: "ada@example.com", subject: "Sign in" },
    });
    expect(String(line.error)).toMatch(/ECONNREFUSED|connect/i);
    expect(lines.join("")).not.toContain(SMTP_PASSWORD);
  }, 60_000);

  it("writes no secret the tests handed over in any line", () => {
    const text = t.log.lines.join("");
    for (const secret of [CARRIER_TOKEN, TRUNK_PASSWORD, "receiver-secret-value"]) expect(text).not.toContain(secret);
  });
});

describe("LOG_FORMAT=pretty and LOG_LEVEL=warn through the server", () => {
  let pretty: TestApp & { log: LogLines };
  beforeAll(async () => {
    pretty = await createLoggedTestApp(
      { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
      { level: "warn", format: "pretty" },
    );
  }, 240_000);
  afterAll(async () => {
    await pretty?.close();
  });

  it("drops the info request lines and writes a failure as one readable line that is not JSON", async () => {
    const user = await signedInUser(pretty);
    expect((await call(pretty, "GET", "/api/v1/health")).statusCode).toBe(200);
    expect(pretty.log.lines).toEqual([]);
    const res = await call(pretty, "POST", "/api/v1/phone-numbers/providers/import-numbers", {
      token: user.token,
      body: {
        provider: "twilio",
        agent_id: null,
        credentials: {
          account_sid: "AC11111111111111111111111111111111",
          auth_token: CARRIER_TOKEN,
          base_url: vendor.origin,
        },
      },
    });
    expect(res.statusCode).toBe(502);
    // The carrier's refusal (warn) and the failed request (error): each one readable line, not JSON.
    expect(pretty.log.lines).toHaveLength(2);
    for (const each of pretty.log.lines) expect(() => JSON.parse(each)).toThrow();
    const carrier = pretty.log.lines.find((l) => l.includes("the carrier could not list the account's numbers")) ?? "";
    expect(carrier).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}WARN {2}/);
    expect(carrier).toContain("status=404");
    const line = pretty.log.lines.find((l) => l.includes("request failed")) ?? "";
    expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}ERROR {2}request failed {2}reqId=\S+ {2}workspaceId=/);
    expect(line).toContain(user.workspaceId);
    expect(line).toContain("Twilio answered HTTP 404");
    expect(line).not.toContain(CARRIER_TOKEN);
  }, 120_000);
});

/** A carrier's registrar on 127.0.0.1 that answers every REGISTER 403 Forbidden. */
async function refusingRegistrar(): Promise<{ socket: Socket; port: number }> {
  const socket = createSocket("udp4");
  socket.on("message", (message, from) => {
    const lines = message.toString("utf8").split("\r\n");
    const header = (name: string) => lines.filter((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
    const reply = [
      "SIP/2.0 403 Forbidden",
      ...header("Via"),
      ...header("From"),
      ...header("To").map((l) => `${l};tag=carrier`),
      ...header("Call-ID"),
      ...header("CSeq"),
      "Content-Length: 0",
      "",
      "",
    ].join("\r\n");
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return { socket, port: socket.address().port };
}

/** A TCP port on 127.0.0.1 nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
