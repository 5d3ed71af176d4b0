import { PHONE_NUMBER_TEXTS } from "@parley/contract";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { integrations } from "../src/modules/integrations/schema.ts";
import { phoneNumbers } from "../src/modules/phone-numbers/schema.ts";
import {
  decryptSecrets,
  digestHa1,
  findExtension,
  findInboundNumbers,
  insertPhoneNumber,
  phoneNumberDbError,
} from "../src/modules/phone-numbers/service.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";

interface PhoneNumberJson {
  id: string;
  number: string;
  country: string | null;
  provider: string;
  friendly_name: string;
  agent_id: string | null;
  agent_name: string | null;
  outbound_agent_id: string | null;
  outbound_agent_name: string | null;
  sip_trunk: Record<string, unknown> | null;
}

const t = useTestApp();

type User = Awaited<ReturnType<typeof signedInUser>>;

async function createAssistant(user: User, name: string): Promise<string> {
  const res = await call(t, "POST", "/api/v1/agents", { token: user.token, body: { name } });
  if (res.statusCode !== 201) throw new Error(`assistant: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

const addNumber = (user: User, body: Record<string, unknown>) =>
  call(t, "POST", "/api/v1/phone-numbers", { token: user.token, body: { provider: "twilio", ...body } });

describe("phone numbers", () => {
  it("needs a signed-in user", async () => {
    expect((await call(t, "GET", "/api/v1/phone-numbers")).statusCode).toBe(401);
    expect((await call(t, "GET", "/api/v1/phone-numbers/countries")).statusCode).toBe(401);
  });

  it("creates, reads, renames, assigns and deletes a number, normalised to E.164", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(user, "Front desk");
    const created = await addNumber(user, { number: "020 7183 8750", country: "gb", friendly_name: "London" });
    expect(created.statusCode, created.body).toBe(201);
    const number = created.json<PhoneNumberJson>();
    expect(number).toMatchObject({
      number: "+442071838750",
      country: "GB",
      provider: "twilio",
      friendly_name: "London",
      agent_id: null,
      sip_trunk: null,
    });

    const patched = await call(t, "PATCH", `/api/v1/phone-numbers/${number.id}`, {
      token: user.token,
      body: { friendly_name: "London office", agent_id: agent, outbound_agent_id: agent },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      friendly_name: "London office",
      agent_id: agent,
      agent_name: "Front desk",
      outbound_agent_name: "Front desk",
    });

    const list = await call(t, "GET", "/api/v1/phone-numbers", { token: user.token });
    expect(list.json<{ phone_numbers: PhoneNumberJson[] }>().phone_numbers).toEqual([
      expect.objectContaining({ id: number.id, agent_name: "Front desk" }),
    ]);

    const unassigned = await call(t, "PATCH", `/api/v1/phone-numbers/${number.id}`, {
      token: user.token,
      body: { agent_id: null },
    });
    expect(unassigned.json()).toMatchObject({ agent_id: null, agent_name: null, outbound_agent_id: agent });

    const deleted = await call(t, "DELETE", `/api/v1/phone-numbers/${number.id}`, { token: user.token });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect((await call(t, "GET", `/api/v1/phone-numbers/${number.id}`, { token: user.token })).statusCode).toBe(404);
  });

  it("refuses a number already in the workspace with the §8 text, whatever way it was typed", async () => {
    const user = await signedInUser(t);
    expect((await addNumber(user, { number: "+1 415 555 0123" })).statusCode).toBe(201);
    const again = await addNumber(user, { number: "(415) 555-0123", country: "US", provider: "telnyx" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: PHONE_NUMBER_TEXTS.duplicate });
    // Another workspace may hold the same number.
    expect((await addNumber(await signedInUser(t), { number: "+14155550123" })).statusCode).toBe(201);
  });

  it("refuses a number that cannot be a phone number with a 422 starting 'Invalid phone number format'", async () => {
    const user = await signedInUser(t);
    for (const number of ["12345", "not a number", "+999 123", "4155550123"]) {
      const res = await addNumber(user, { number });
      expect(res.statusCode, number).toBe(422);
      expect(res.json<{ detail: string }>().detail, number).toMatch(/^Invalid phone number format/);
      expect(res.json()).toMatchObject({ errors: [{ field: "number" }] });
    }
  });

  it("keeps every workspace's numbers to itself", async () => {
    const owner = await signedInUser(t);
    const stranger = await signedInUser(t);
    const id = (await addNumber(owner, { number: "+14155550199" })).json<PhoneNumberJson>().id;
    const paths = [
      ["GET", `/api/v1/phone-numbers/${id}`],
      ["PATCH", `/api/v1/phone-numbers/${id}`],
      ["DELETE", `/api/v1/phone-numbers/${id}`],
    ] as const;
    for (const [method, url] of paths) {
      const res = await call(t, method, url, { token: stranger.token, ...(method === "PATCH" ? { body: {} } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await call(t, "GET", "/api/v1/phone-numbers", { token: stranger.token });
    expect(list.json()).toEqual({ phone_numbers: [] });
    // Nor may a number be given another workspace's assistant.
    const foreignAgent = await createAssistant(stranger, "Not yours");
    const assign = await call(t, "PATCH", `/api/v1/phone-numbers/${id}`, {
      token: owner.token,
      body: { agent_id: foreignAgent },
    });
    expect(assign.statusCode).toBe(404);
    expect((await addNumber(owner, { number: "+14155550100", agent_id: foreignAgent })).statusCode).toBe(404);
  });

  it("refuses another workspace's integration, or one of another provider", async () => {
    const owner = await signedInUser(t);
    const other = await signedInUser(t);
    const twilio = { credentials: { account_sid: "AC0123456789abcdef", auth_token: "token-0123456789" } };
    const integrationOf = async (user: User) => {
      const saved = await call(t, "PUT", "/api/v1/integrations/twilio", { token: user.token, body: twilio });
      expect(saved.statusCode, saved.body).toBe(200);
      const [row] = await t.ctx.db.select().from(integrations).where(eq(integrations.workspaceId, user.workspaceId));
      return row?.id;
    };
    const foreign = await integrationOf(other);
    const own = await integrationOf(owner);
    for (const [provider, integration_id] of [
      ["twilio", foreign],
      ["telnyx", own],
    ]) {
      const res = await addNumber(owner, { number: "+14155550111", provider, integration_id });
      expect(res.statusCode, provider).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field: "integration_id" }] });
    }
  });

  it("sends extensions and WhatsApp numbers to their own forms", async () => {
    const user = await signedInUser(t);
    for (const provider of ["extension", "whatsapp"]) {
      const res = await addNumber(user, { number: "+14155550123", provider });
      expect(res.statusCode, provider).toBe(422);
      expect(res.json()).toMatchObject({ errors: [{ field: "provider" }] });
    }
  });

  it("asks for a SIP host before a SIP trunk number when SIP is off", async () => {
    const user = await signedInUser(t);
    const res = await addNumber(user, { number: "+14155550123", provider: "sip_trunk", sip_trunk: { sip_host: "x" } });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toBe(PHONE_NUMBER_TEXTS.sipHostMissing);
  });
});

describe("extensions in the table", () => {
  it("keeps a SIP identity to one workspace: a second 1001@domain is the §8 extension text", async () => {
    const [a, b] = [await signedInUser(t), await signedInUser(t)];
    const extension = (password: string) => ({
      number: "1001",
      provider: "extension" as const,
      extension: "1001",
      extensionDomain: "sip.parley.example",
      sipUsername: "1001",
      sipHa1: digestHa1("1001", "sip.parley.example", password),
    });
    const first = await insertPhoneNumber(t.ctx.db, a, extension("pw-a"));
    await expect(insertPhoneNumber(t.ctx.db, b, extension("pw-b"))).rejects.toMatchObject({
      status: 409,
      message: PHONE_NUMBER_TEXTS.extensionExists("1001"),
    });
    const found = await findExtension(t.ctx.db, "1001", "SIP.parley.example");
    expect(found?.id).toBe(first.id);
    expect(found?.sipHa1).toBe(digestHa1("1001", "sip.parley.example", "pw-a"));
  });
});

describe("database races", () => {
  /** A real driver error with the given SQLSTATE, as the database raises it. */
  async function databaseError(state: string): Promise<unknown> {
    try {
      await t.ctx.db.execute(sql.raw(`do $$ begin raise exception 'lost a race' using errcode = '${state}'; end $$`));
    } catch (error) {
      return error;
    }
    throw new Error("the database raised nothing");
  }

  it("answers a serialization failure, deadlock or lock timeout with the §8 503", async () => {
    for (const state of ["40001", "40P01", "55P03"]) {
      const answer = phoneNumberDbError(await databaseError(state), { extension: null });
      expect(answer, state).toMatchObject({ status: 503, message: PHONE_NUMBER_TEXTS.busy });
    }
    const other = await databaseError("22001");
    expect(phoneNumberDbError(other, { extension: null })).toBe(other);
  });
});

describe("SIP trunk numbers", () => {
  // SIP_PORT 0 sets a SIP host without a fixed port.
  const sip = useTestApp({ SIP_PORT: "0" });

  it("stores the trunk without its password, sealed at rest, and changes only the fields a PATCH names", async () => {
    const user = await signedInUser(sip);
    const res = await call(sip, "POST", "/api/v1/phone-numbers", {
      token: user.token,
      body: {
        number: "+14155550177",
        provider: "sip_trunk",
        sip_trunk: {
          sip_host: "sip.carrier.example:5060",
          username: "trunk1",
          password: "trunk-secret",
          register: true,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<PhoneNumberJson>();
    expect(created.sip_trunk).toEqual({
      sip_host: "sip.carrier.example:5060",
      transport: "udp",
      username: "trunk1",
      register: true,
      allowed_ips: [],
      has_password: true,
    });
    expect(res.body).not.toContain("trunk-secret");

    const [row] = await sip.ctx.db.select().from(phoneNumbers).where(eq(phoneNumbers.id, created.id));
    if (!row) throw new Error("row missing");
    expect(row.sipPassword).not.toContain("trunk-secret");
    expect(decryptSecrets(sip.ctx, row)).toEqual({ sipPassword: "trunk-secret" });
    expect(JSON.stringify(row.sipTrunk)).not.toContain("trunk-secret");

    const patched = await call(sip, "PATCH", `/api/v1/phone-numbers/${created.id}`, {
      token: user.token,
      body: { sip_trunk: { transport: "tcp" } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<PhoneNumberJson>().sip_trunk).toMatchObject({
      sip_host: "sip.carrier.example:5060",
      transport: "tcp",
      register: true,
      has_password: true,
    });
    expect(await findInboundNumbers(sip.ctx.db, "sip_trunk", "+14155550177")).toHaveLength(1);
  });

  it("requires the trunk settings", async () => {
    const user = await signedInUser(sip);
    const res = await call(sip, "POST", "/api/v1/phone-numbers", {
      token: user.token,
      body: { number: "+14155550178", provider: "sip_trunk" },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ errors: [{ field: "sip_trunk" }] });
  });
});

describe("countries", () => {
  it("lists about 200 countries with their dialing prefixes, labelled in the locale", async () => {
    const user = await signedInUser(t);
    const res = await call(t, "GET", "/api/v1/phone-numbers/countries", { token: user.token });
    expect(res.statusCode).toBe(200);
    const { countries } = res.json<{ countries: { code: string; label: string; dialing_prefix: string }[] }>();
    expect(countries.length).toBeGreaterThanOrEqual(190);
    expect(countries).toContainEqual({ code: "GB", label: "United Kingdom", dialing_prefix: "+44" });
    expect(countries).toContainEqual({ code: "US", label: "United States", dialing_prefix: "+1" });
    const labels = countries.map((c) => c.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, "en")));

    const french = await call(t, "GET", "/api/v1/phone-numbers/countries?locale=fr", { token: user.token });
    expect(french.json<{ countries: { code: string; label: string }[] }>().countries).toContainEqual(
      expect.objectContaining({ code: "DE", label: "Allemagne" }),
    );
    const unknown = await call(t, "GET", "/api/v1/phone-numbers/countries?locale=%21%21", { token: user.token });
    expect(unknown.statusCode).toBe(200);
  });
});

describe("API document", () => {
  it("describes the phone number routes", async () => {
    const res = await call(t, "GET", "/api/v1/openapi.json");
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api/v1/phone-numbers",
        "/api/v1/phone-numbers/{id}",
        "/api/v1/phone-numbers/countries",
        "/api/v1/phone-numbers/providers/import-numbers",
      ]),
    );
  });
});
