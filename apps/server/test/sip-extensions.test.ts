import { createSocket } from "node:dgram";
import { PHONE_NUMBER_TEXTS } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCallLog } from "../src/modules/call-logs/queries.ts";
import { requirePhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { placeSipCall } from "../src/modules/sip/outbound.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { eventually, rtpWindow, startBaresip } from "./support/sip-peers.ts";

let t: TestApp;
let token: string;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp({ SIP_PORT: "0", SIP_HOST: "127.0.0.1", ...rtpWindow() });
  const user = await signedInUser(t);
  token = user.token;
  workspaceId = user.workspaceId;
});
afterAll(async () => {
  await t.close();
});

const status = (extension: string, domain: string, as = token) =>
  call(t, "POST", "/api/v1/phone-numbers/extensions/status", { token: as, body: { extension, domain } });

describe("SIP extensions", () => {
  it("creates an extension with SIP credentials shown once, and refuses it twice", async () => {
    const res = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "2001", domain: "Office.Example.test" },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{
      phone_number: { number: string; provider: string; extension: unknown };
      sip: Record<string, unknown>;
    }>();
    expect(body.phone_number).toMatchObject({
      number: "2001",
      provider: "extension",
      extension: { ext: "2001", domain: "office.example.test", username: "2001" },
    });
    expect(body.sip).toMatchObject({
      username: "2001",
      domain: "office.example.test",
      registrar: `127.0.0.1:${sipRuntimeOf(t.ctx)?.port}`,
      transport: ["udp", "tcp"],
    });
    expect(String(body.sip.password)).toMatch(/^[\w-]{24}$/);
    const again = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "2001", domain: "office.example.test" },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ detail: PHONE_NUMBER_TEXTS.extensionExists("2001") });
  });

  it("asks for a valid SIP domain", async () => {
    const res = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "2002", domain: "not a domain" },
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(PHONE_NUMBER_TEXTS.invalidDomain);
  });

  it("reports NOT_FOUND for another workspace's extension and for none at all", async () => {
    const other = await signedInUser(t);
    expect((await status("2001", "office.example.test", other.token)).json()).toMatchObject({ status: "NOT_FOUND" });
    expect((await status("2999", "office.example.test")).json()).toMatchObject({ status: "NOT_FOUND" });
  });

  it.each(["udp", "tcp"] as const)(
    "shows baresip registered over %s (REGED), then NOREG once it unregisters",
    async (transport) => {
      const ext = transport === "udp" ? "3001" : "3002";
      const created = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
        token,
        body: { ext, domain: "example.test" },
      });
      const sip = created.json<{ sip: { password: string; registrar: string } }>().sip;
      expect((await status(ext, "example.test")).json()).toMatchObject({ status: "NOREG", contact: null });
      const phone = await startBaresip({
        user: ext,
        domain: "example.test",
        password: sip.password,
        registrar: sip.registrar,
        transport,
      });
      try {
        const reged = await eventually(
          async () => {
            const body = (await status(ext, "example.test")).json<{ status: string; contact: string | null }>();
            return body.status === "REGED" ? body : null;
          },
          () => `baresip to register (${phone.output().slice(-500)})`,
        );
        expect(reged.contact).toMatch(new RegExp(`^sip:${ext}\\S*@127\\.0\\.0\\.1:\\d+`));
      } finally {
        await phone.stop("SIGINT");
      }
      await eventually(
        async () => (await status(ext, "example.test")).json<{ status: string }>().status === "NOREG",
        "the unregistration",
      );
    },
    // Three waits of their own (registration, baresip's exit, unregistration): the test's budget
    // covers them, so a slow machine fails with what was awaited rather than a bare timeout.
    75_000,
  );

  it("places a call from an extension to a registered phone, which the assistant then talks to", async () => {
    const agentId = await createAssistant(t, token, { first_message: "Hello from Parley." });
    const phoneExt = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "4001", domain: "example.test" },
    });
    const sip = phoneExt.json<{ sip: { password: string; registrar: string } }>().sip;
    const from = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "4002", domain: "example.test" },
    });
    const fromId = from.json<{ phone_number: { id: string } }>().phone_number.id;
    const phone = await startBaresip({
      user: "4001",
      domain: "example.test",
      password: sip.password,
      registrar: sip.registrar,
      autoAnswer: true,
    });
    try {
      await eventually(
        async () => (await status("4001", "example.test")).json<{ status: string }>().status === "REGED",
        "baresip to register",
      );
      const runtime = sipRuntimeOf(t.ctx);
      if (!runtime) throw new Error("SIP is not running");
      const record = await requirePhoneNumber(t.ctx.db, { workspaceId }, fromId);
      const placed = await placeSipCall(runtime.ctx, { workspaceId }, record, "4001", agentId);
      const answered = await eventually(
        async () => {
          const log = await getCallLog(t.ctx.db, { workspaceId }, placed.call_id);
          return log.status === "in_progress" ? log : null;
        },
        "the phone to answer",
        20_000,
      ).catch(async (error: unknown) => {
        const log = await getCallLog(t.ctx.db, { workspaceId }, placed.call_id);
        throw new Error(`${error} ${JSON.stringify(log).slice(0, 800)} ${phone.output().slice(-1500)}`);
      });
      expect(answered).toMatchObject({ channel: "sip", direction: "outbound", from_number: "4002", to_number: "4001" });
      await t.ctx.calls.rooms
        .all()
        .find((r) => r.callId === placed.call_id)
        ?.call?.end("removed");
      await eventually(async () => /closed|terminated|BYE/i.test(phone.output()), "baresip to see the BYE");
    } finally {
      await phone.stop();
    }
  }, 60_000);

  it("refuses a phone with the wrong password", async () => {
    await call(t, "POST", "/api/v1/phone-numbers/extensions", { token, body: { ext: "3003", domain: "example.test" } });
    const registrar = `127.0.0.1:${sipRuntimeOf(t.ctx)?.port}`;
    const phone = await startBaresip({ user: "3003", domain: "example.test", password: "wrong-password", registrar });
    try {
      await eventually(async () => /403|Forbidden/.test(phone.output()), "the refusal");
      expect((await status("3003", "example.test")).json()).toMatchObject({ status: "NOREG" });
    } finally {
      await phone.stop();
    }
  });
});

describe("SIP switched off", () => {
  it("keeps serving with SIP off when the SIP port is taken", async () => {
    const taken = createSocket("udp4");
    await new Promise<void>((resolve) => taken.bind(0, "0.0.0.0", resolve));
    const busy = await createTestApp({ SIP_PORT: String(taken.address().port), SIP_HOST: "127.0.0.1" });
    try {
      expect(sipRuntimeOf(busy.ctx)).toBeNull();
      const user = await signedInUser(busy);
      const res = await call(busy, "POST", "/api/v1/phone-numbers/extensions/status", {
        token: user.token,
        body: { extension: "1001", domain: "example.test" },
      });
      expect(res.json()).toEqual({ detail: PHONE_NUMBER_TEXTS.switchUnreachable });
    } finally {
      await busy.close();
      taken.close();
    }
  });

  it("answers the status call with the telephony switch text", async () => {
    const off = await createTestApp({ SIP_PORT: "off" });
    try {
      const user = await signedInUser(off);
      const res = await call(off, "POST", "/api/v1/phone-numbers/extensions/status", {
        token: user.token,
        body: { extension: "1001", domain: "example.test" },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: PHONE_NUMBER_TEXTS.switchUnreachable });
    } finally {
      await off.close();
    }
  });
});
