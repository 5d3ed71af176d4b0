import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { NetworkDeps } from "@parley/engine";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { resolveCredentials } from "../src/modules/integrations/credentials.ts";
import { integrations } from "../src/modules/integrations/schema.ts";
import { decryptSecrets, insertPhoneNumber, requirePhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { KEYLESS_PROVIDERS } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { useSavedAndOtherHost } from "./support/recording-host.ts";
import { signedInMember } from "./support/workspace-members.ts";

/**
 * Issue 25 item 1: a telephony vendor's stored secrets follow their host. Saved without a base URL
 * they go to the vendor's own API; pointing `base_url` anywhere else needs every stored secret typed
 * again, else a member's outbound call would send the auth token to that host. `saved` stands for
 * the vendor's own API (this file routes every public host there), `other` for the moved host.
 */

const { saved, other } = useSavedAndOtherHost({});
const t = useTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });

const secret = () => randomBytes(16).toString("hex");
const privateKey = () =>
  generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString()
    .trim();

interface Vendor {
  provider: "twilio" | "telnyx" | "plivo" | "vonage";
  /** The credentials besides the secrets. */
  plain: Record<string, string>;
  /** Every secret field, in the descriptor's order. */
  secrets: () => Record<string, string>;
  /** The label and field of the first secret the refusal asks for. */
  again: { label: string; field: string };
}

const VENDORS: Vendor[] = [
  {
    provider: "twilio",
    plain: { account_sid: `AC${secret()}` },
    secrets: () => ({ auth_token: secret() }),
    again: { label: "Auth token", field: "auth_token" },
  },
  {
    provider: "telnyx",
    plain: { application_id: "texml-app-1", public_key: "dGVsbnl4LXB1YmxpYy1rZXk=" },
    secrets: () => ({ api_key: `KEY${secret()}` }),
    again: { label: "API key", field: "api_key" },
  },
  {
    provider: "plivo",
    plain: { auth_id: `MA${secret().slice(0, 18).toUpperCase()}` },
    secrets: () => ({ auth_token: secret() }),
    again: { label: "Auth token", field: "auth_token" },
  },
  {
    provider: "vonage",
    plain: { api_key: secret().slice(0, 8), application_id: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee" },
    secrets: () => ({ api_secret: secret(), private_key: privateKey(), signature_secret: secret() }),
    again: { label: "API secret", field: "api_secret" },
  },
];

const againText = (label: string) =>
  `Enter the ${label} again: a saved secret is only sent to the API base URL it was saved with.`;

const putIntegration = (token: string, provider: string, credentials: Record<string, string>) =>
  call(t, "PUT", `/api/v1/integrations/${provider}`, { token, body: { credentials } });

/** Every header value the moved host received, to look for a secret in. */
const otherHeard = () => other.seen.flatMap((s) => Object.values(s.headers).flat()).join("\n");

/** The app's network with every public host (the vendors' own APIs) answered by `saved`. */
function vendorsAtSavedHost(real: NetworkDeps): NetworkDeps {
  const fetchRouted = (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = url.hostname === "127.0.0.1" ? url : new URL(`${url.pathname}${url.search}`, saved.url);
    return real.fetch(target.toString(), init);
  };
  return { ...real, fetch: fetchRouted as typeof fetch };
}

describe.each(VENDORS)("$provider credentials saved for the vendor's own API", (vendor) => {
  const { provider, plain } = vendor;

  it("refuses a base_url on another host until every stored secret is typed again", async () => {
    const { token, workspaceId } = await signedInUser(t);
    const secrets = vendor.secrets();
    const first = await putIntegration(token, provider, { ...plain, ...secrets });
    expect(first.statusCode, first.body).toBe(200);

    const moved = await putIntegration(token, provider, { base_url: other.url });
    const again = againText(vendor.again.label);
    expect(moved.statusCode, moved.body).toBe(422);
    expect(moved.json()).toEqual({
      detail: again,
      errors: [{ field: `credentials.${vendor.again.field}`, message: again }],
    });
    expect(await resolveCredentials(t.ctx, workspaceId, provider)).toEqual({ ...plain, ...secrets });

    const tested = await call(t, "POST", `/api/v1/integrations/${provider}/test`, {
      token,
      body: { credentials: { base_url: other.url } },
    });
    expect(tested.json()).toEqual({ ok: false, message: again });

    // Typing only some of the secrets again is not enough: each stored one must be.
    const [firstName, ...rest] = Object.keys(secrets);
    if (firstName && rest.length > 0) {
      const partial = await putIntegration(token, provider, { base_url: other.url, [firstName]: secret() });
      expect(partial.statusCode).toBe(422);
      expect(await resolveCredentials(t.ctx, workspaceId, provider)).toEqual({ ...plain, ...secrets });
    }

    const retyped = vendor.secrets();
    const accepted = await putIntegration(token, provider, { base_url: `${other.url}/`, ...retyped });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await resolveCredentials(t.ctx, workspaceId, provider)).toEqual({
      ...plain,
      ...retyped,
      base_url: `${other.url}/`,
    });
    expect(other.seen).toEqual([]);
  });

  it("never sends a stored secret to a base_url moved without it, on a member's outbound call", async () => {
    const owner = await signedInUser(t);
    const secrets = vendor.secrets();
    expect((await putIntegration(owner.token, provider, { ...plain, ...secrets })).statusCode).toBe(200);
    const agentId = await createAssistant(t, owner.token, { name: "Caller", ...KEYLESS_PROVIDERS });
    const number = await insertPhoneNumber(t.ctx.db, owner, {
      number: "+14155550142",
      provider,
      outboundAgentId: agentId,
      providerNumberId: "vendor-number-1",
    });
    const member = await signedInMember(t, owner.workspaceId);

    const moved = await putIntegration(owner.token, provider, { base_url: other.url });
    await placeCallThroughVendor(t, member.token, number.id);

    expect(other.seen).toEqual([]);
    for (const value of Object.values(secrets)) expect(otherHeard()).not.toContain(value);
    // The call did go out, with its credentials, to the vendor's own API.
    expect(saved.seen.some((r) => r.headers.authorization !== undefined)).toBe(true);
    expect(moved.statusCode).toBe(422);
  });
});

describe("credentials opened for a vendor client", () => {
  it("withhold the secrets when a stored URL is not on the host they were saved with (a faulty save path)", async () => {
    const owner = await signedInUser(t);
    const token = secret();
    await putIntegration(owner.token, "twilio", { account_sid: "AC0123", auth_token: token });
    // What a save path that skipped the host rule would leave: the URL moved, the secret kept.
    const [row] = await t.ctx.db.select().from(integrations).where(eq(integrations.workspaceId, owner.workspaceId));
    if (!row) throw new Error("the integration was not saved");
    const sealed = JSON.parse(t.ctx.secrets.decrypt(row.credentials)) as Record<string, string>;
    const moved = t.ctx.secrets.encrypt(JSON.stringify({ ...sealed, base_url: other.url }));
    await t.ctx.db.update(integrations).set({ credentials: moved }).where(eq(integrations.id, row.id));

    expect(await resolveCredentials(t.ctx, owner.workspaceId, "twilio")).toEqual({
      account_sid: "AC0123",
      base_url: other.url,
    });
    const agentId = await createAssistant(t, owner.token, { name: "Caller", ...KEYLESS_PROVIDERS });
    const number = await insertPhoneNumber(t.ctx.db, owner, {
      number: "+14155550143",
      provider: "twilio",
      outboundAgentId: agentId,
    });
    await placeCallThroughVendor(t, owner.token, number.id);
    expect(otherHeard()).not.toContain(token);
    expect(other.seen.every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});

describe("a SIP trunk's stored password", () => {
  const again = "Enter the Password again: a saved secret is only sent to the SIP server it was saved with.";
  const trunk = {
    sip_host: "sip.carrier.example",
    transport: "udp",
    username: "trunk1",
    register: true,
    allowed_ips: [],
  };

  async function trunkNumber(password: string | null) {
    const owner = await signedInUser(t);
    const record = await insertPhoneNumber(t.ctx.db, owner, {
      number: "+14155550177",
      provider: "sip_trunk",
      sipTrunk: { ...trunk, transport: "udp" },
      sipPassword: password === null ? null : t.ctx.secrets.encrypt(password),
    });
    const member = await signedInMember(t, owner.workspaceId);
    const patch = (sipTrunk: Record<string, string>) =>
      call(t, "PATCH", `/api/v1/phone-numbers/${record.id}`, { token: member.token, body: { sip_trunk: sipTrunk } });
    const stored = async () => {
      const row = await requirePhoneNumber(t.ctx.db, owner, record.id);
      return { sipTrunk: row.sipTrunk, ...decryptSecrets(t.ctx, row) };
    };
    return { patch, stored };
  }

  it("stays with its SIP server: moving the trunk elsewhere needs the password typed again", async () => {
    const { patch, stored } = await trunkNumber("trunk-secret");
    const moved = await patch({ sip_host: "127.0.0.5:5060" });
    expect(moved.statusCode, moved.body).toBe(422);
    expect(moved.json()).toEqual({ detail: again, errors: [{ field: "sip_trunk.password", message: again }] });
    expect(await patch({ sip_host: "sip.carrier.example:5080" })).toMatchObject({ statusCode: 422 });
    expect(await stored()).toEqual({ sipTrunk: trunk, sipPassword: "trunk-secret" });

    // The same server written another way keeps the password; typed again, it goes with the new server.
    expect((await patch({ sip_host: "SIP.carrier.example:5060", transport: "tcp" })).statusCode).toBe(200);
    expect(await stored()).toMatchObject({ sipPassword: "trunk-secret" });
    expect((await patch({ sip_host: "127.0.0.5:5060", password: "new-trunk-secret" })).statusCode).toBe(200);
    expect(await stored()).toEqual({
      sipTrunk: { ...trunk, sip_host: "127.0.0.5:5060", transport: "tcp" },
      sipPassword: "new-trunk-secret",
    });
  });

  it("lets a trunk without a password (IP-authenticated) move freely", async () => {
    const { patch, stored } = await trunkNumber(null);
    expect((await patch({ sip_host: "127.0.0.5:5060" })).statusCode).toBe(200);
    expect(await stored()).toMatchObject({ sipTrunk: { sip_host: "127.0.0.5:5060" } });
  });
});

/** A member's POST /make_outbound_call with every public host routed to `saved`; its answer is not the point. */
async function placeCallThroughVendor(app: TestApp, token: string, callerId: string) {
  const real = app.ctx.network;
  app.ctx.network = vendorsAtSavedHost(real);
  try {
    await call(app, "POST", "/api/v1/make_outbound_call", {
      token,
      body: { caller_uuid: callerId, destination_number: "+14155550123" },
    });
  } finally {
    app.ctx.network = real;
  }
}
