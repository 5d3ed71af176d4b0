import { randomBytes, randomUUID } from "node:crypto";
import { type PlivoDouble, startPlivoDouble } from "@parley/engine/testing/telephony/plivo-double";
import { plivoSignatureV3 } from "@parley/engine/testing/telephony/plivo-signature";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { type BridgeWorld, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * Issue 26 item 7, against the local Plivo double: Plivo's answer request for a call placed
 * through its API names the request by ALegRequestUUID (its documented answer parameters carry no
 * RequestUUID), and is accepted when signed; a call the carrier's hangup callback reports completed
 * ends without a REST hang-up for a call Plivo no longer has.
 */

const NUMBER = "+14155550170";
const DESTINATION = "+14155550123";
const CALLER = "+14155559999";
const plain = (e164: string) => e164.replace(/^\+/, "");

function plivoAccount() {
  return { authId: `MA${randomBytes(9).toString("hex").toUpperCase()}`, authToken: randomBytes(20).toString("hex") };
}

/** A webhook signed as Plivo signs one (X-Plivo-Signature-V3 over the URL, the sorted parameters and the nonce). */
function signedForm(token: string, url: string, params: Record<string, string>) {
  const nonce = randomBytes(10).toString("hex");
  return {
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-plivo-signature-v3": plivoSignatureV3(token, "POST", url, params, nonce),
      "x-plivo-signature-v3-nonce": nonce,
    },
    body: new URLSearchParams(params).toString(),
  };
}

describe("a Plivo answer for a call Parley placed", () => {
  const account = plivoAccount();
  // Webhooks go to a closed port: the double's own callbacks never arrive, the test sends the answer.
  const publicUrl = "http://127.0.0.1:9";
  let double: PlivoDouble;
  let t: TestApp;
  beforeAll(async () => {
    double = await startPlivoDouble({ accounts: [{ ...account, numbers: [NUMBER] }] });
    t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", PUBLIC_URL: publicUrl });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await double?.close();
  }, 180_000);

  it("is accepted when signed, naming the request by ALegRequestUUID alone", async () => {
    const user = await signedInUser(t);
    const credentials = { auth_id: account.authId, auth_token: account.authToken, base_url: double.origin };
    const saved = await call(t, "PUT", "/api/v1/integrations/plivo", { token: user.token, body: { credentials } });
    expect(saved.statusCode, saved.body).toBe(200);
    const agentId = await createAssistant(t, user.token, { name: "Caller" });
    const number = await call(t, "POST", "/api/v1/phone-numbers", {
      token: user.token,
      body: { number: NUMBER, provider: "plivo", outbound_agent_id: agentId },
    });
    expect(number.statusCode, number.body).toBe(201);
    const placed = await call(t, "POST", "/api/v1/make_outbound_call", {
      token: user.token,
      body: { caller_uuid: number.json<{ id: string }>().id, destination_number: DESTINATION },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const requestUuid = placed.json<{ provider_call_id: string }>().provider_call_id;
    expect(requestUuid).toBeTruthy();

    // The answer URL's parameters as Plivo documents them for a call made with the Call API.
    const callUuid = randomUUID();
    const params = {
      CallUUID: callUuid,
      ALegUUID: callUuid,
      ALegRequestUUID: requestUuid,
      From: plain(NUMBER),
      To: plain(DESTINATION),
      CallStatus: "in-progress",
      Direction: "outbound",
      Event: "StartApp",
    };
    const url = `${publicUrl}/api/v1/telephony/plivo/voice`;
    const signed = signedForm(account.authToken, url, params);
    const answer = await t.app.inject({
      method: "POST",
      url: "/api/v1/telephony/plivo/voice",
      headers: signed.headers,
      payload: signed.body,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.body).toContain("<Stream");
  }, 60_000);
});

describe("a Plivo call the carrier reports completed", () => {
  const account = plivoAccount();
  let double: PlivoDouble;
  let world: BridgeWorld;
  beforeAll(async () => {
    double = await startPlivoDouble({ accounts: [{ ...account, numbers: [NUMBER] }] });
    world = await startBridgeWorld({
      provider: "plivo",
      credentials: (origin) => ({ auth_id: account.authId, auth_token: account.authToken, base_url: origin }),
      doubleOrigin: double.origin,
      number: NUMBER,
    });
  }, 180_000);
  afterAll(async () => {
    await world?.close();
    await double?.close();
  }, 180_000);

  it("ends without a REST hang-up when the hangup callback came before the stream stopped", async () => {
    const handle = await double.ringInbound(NUMBER, CALLER);
    expect(handle.voice.status).toBe(200);
    const leg = await handle.stream();
    await leg.waitForAudio(200);

    // Plivo's hangup callback for the call, while its stream has not said stop yet.
    const params = {
      CallUUID: handle.call.id,
      ALegUUID: handle.call.id,
      From: plain(CALLER),
      To: plain(NUMBER),
      CallStatus: "completed",
      Direction: "inbound",
      Event: "Hangup",
      HangupCause: "NORMAL_CLEARING",
      Duration: "2",
      BillDuration: "2",
    };
    const url = `${world.t.config.publicUrl}/api/v1/telephony/plivo/status`;
    const signed = signedForm(account.authToken, url, params);
    const status = await fetch(url, { method: "POST", headers: signed.headers, body: signed.body });
    expect(status.status).toBe(204);

    // Parley closes the stream once the call has ended here; a hang-up request would come before that.
    const closed = await leg.done;
    expect(closed.closedBy).toBe("parley");
    const hangups = double.requests.filter((r) => r.method === "DELETE" && r.path.includes(handle.call.id));
    expect(hangups).toEqual([]);
    // The double still holds the call (only the test said it was over): it ends it now.
    await handle.hangup();
  }, 90_000);
});
