import { describe, expect, it } from "vitest";
import { WebrtcAudioLeg } from "../../src/webrtc/audio-leg.ts";
import { callerSpeech, isNonSilent } from "./audio-checks.ts";
import { startStandInApp, until } from "./stand-in-app.ts";
import { SAMPLE_NUMBER, signBody, startWhatsappDouble } from "./whatsapp-double.ts";

/** The WhatsApp double driven by plain HTTP and a stand-in business that answers with its own WebRTC leg. */

describe("the WhatsApp double", () => {
  it("answers the Graph API as documented: fields, OAuth error 190, unknown object error 100", async () => {
    const double = await startWhatsappDouble({ numbers: [SAMPLE_NUMBER], appSecret: "s" });
    try {
      const get = (id: string, token: string) =>
        fetch(`${double.apiUrl}/${id}?fields=display_phone_number,verified_name`, {
          headers: { authorization: `Bearer ${token}` },
        });
      const ok = await get(SAMPLE_NUMBER.phoneNumberId, "EAAG-good");
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({
        id: SAMPLE_NUMBER.phoneNumberId,
        display_phone_number: "+1 415-555-0100",
        verified_name: "Parley Clinic",
      });
      const badToken = await get(SAMPLE_NUMBER.phoneNumberId, "nope");
      expect(badToken.status).toBe(401);
      expect(await badToken.json()).toMatchObject({ error: { type: "OAuthException", code: 190 } });
      const badId = await get("42", "EAAG-good");
      expect(badId.status).toBe(400);
      expect(await badId.json()).toMatchObject({
        error: {
          code: 100,
          message: expect.stringContaining("does not exist"),
        },
      });
    } finally {
      await double.close();
    }
  });

  it("places a signed call, takes the answer from the calls API, and exchanges Opus audio both ways", async () => {
    const double = await startWhatsappDouble({ numbers: [SAMPLE_NUMBER], appSecret: "app-secret" });
    let business: WebrtcAudioLeg | null = null;
    const heardByBusiness: Int16Array[] = [];
    const app = await startStandInApp({
      async http(request) {
        const notification = JSON.parse(request.body);
        const call = notification.entry[0].changes[0].value.calls[0];
        expect(request.headers["x-hub-signature-256"]).toBe(signBody(request.body, "app-secret"));
        if (call.event !== "connect") return { status: 200 };
        const { leg, sdp } = await WebrtcAudioLeg.answer(call.session.sdp, {
          iceServers: [{ urls: double.stunUrl }],
          extraHostAddresses: ["127.0.0.1"],
        });
        business = leg;
        leg.onAudio((pcm) => heardByBusiness.push(pcm));
        for (const action of ["pre_accept", "accept"]) {
          const res = await fetch(`${double.apiUrl}/${SAMPLE_NUMBER.phoneNumberId}/calls`, {
            method: "POST",
            headers: { authorization: "Bearer EAAG-good", "content-type": "application/json" },
            body: JSON.stringify({
              messaging_product: "whatsapp",
              call_id: call.id,
              action,
              session: { sdp_type: "answer", sdp },
            }),
          });
          expect(res.status).toBe(200);
        }
        return { status: 200 };
      },
      socket: () => undefined,
    });
    try {
      const { call, webhook } = await double.call({
        webhookUrl: `${app.origin}/webhook`,
        phoneNumberId: SAMPLE_NUMBER.phoneNumberId,
        from: "+447700900123",
        speech: callerSpeech("Hello there"),
      });
      expect(webhook.status).toBe(200);
      await call.accepted;
      const leg = business as WebrtcAudioLeg | null;
      if (!leg) throw new Error("the business never answered");
      await leg.connected;
      const total = () => {
        const out = new Int16Array(heardByBusiness.reduce((n, f) => n + f.length, 0));
        let at = 0;
        for (const f of heardByBusiness) {
          out.set(f, at);
          at += f.length;
        }
        return out;
      };
      await until(() => isNonSilent(total()), "the caller's speech at the business", 30_000);
      const tone = new Int16Array(16_000).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)));
      leg.sendAudio(tone);
      await until(() => isNonSilent(call.heardPcm()), "the business's audio at the caller", 30_000);
      expect(double.actions.map((a) => a.action)).toEqual(["pre_accept", "accept"]);
      await call.hangup();
      expect(double.webhooks.at(-1)?.body).toContain('"event":"terminate"');
    } finally {
      (business as WebrtcAudioLeg | null)?.close();
      await app.close();
      await double.close();
    }
  }, 60_000);
});
