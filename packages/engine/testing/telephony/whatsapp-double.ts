import { createHmac, randomUUID } from "node:crypto";
import { WebrtcAudioLeg } from "../../src/webrtc/audio-leg.ts";
import {
  bearerToken,
  type DoubleRequest,
  type DoubleResponse,
  type DoubleServer,
  isRecord,
  jsonObjectOf,
  sendWebhook,
  startDoubleServer,
  stringField,
  type WebhookExchange,
} from "./double-server.ts";
import { startStunResponder } from "./whatsapp-stun.ts";

/**
 * A local WhatsApp Cloud API (Graph API) and a WhatsApp user's phone, as the Cloud API Calling docs
 * describe them. REST: GET /{version}/{phone-number-id}?fields=… (Bearer token; error 190
 * OAuthException on a bad token, error 100 on an id the token cannot read), POST
 * /{version}/{waba-id}/subscribed_apps, POST /{version}/{phone-number-id}/calls with action
 * pre_accept / accept (session {sdp_type:"answer", sdp}) / reject / terminate. The phone: `call()`
 * makes a WebRTC offer, posts the "calls" webhook with event "connect" signed X-Hub-Signature-256,
 * takes the SDP answer from the calls API, then plays its speech as Opus and records what it hears.
 */

export const GRAPH_VERSION = "v23.0";

export interface DoubleNumber {
  phoneNumberId: string;
  /** As the Graph API shows it, e.g. "+1 415-555-0123". */
  displayPhoneNumber: string;
  verifiedName: string;
  businessAccountId: string;
  /** The token that may read and drive this number. */
  accessToken: string;
}

/** A business number the doubles' tests register: its token is "EAAG-good". */
export const SAMPLE_NUMBER: DoubleNumber = {
  phoneNumberId: "106540352242922",
  displayPhoneNumber: "+1 415-555-0100",
  verifiedName: "Parley Clinic",
  businessAccountId: "102290129340398",
  accessToken: "EAAG-good",
};

export interface CallAction {
  phoneNumberId: string;
  callId: string;
  action: string;
  sdpType: string | null;
  sdp: string | null;
  at: number;
}

export interface WhatsappDoubleOptions {
  numbers: DoubleNumber[];
  /** The Meta app's secret: signs the webhooks. */
  appSecret: string;
}

export interface PlaceCallOptions {
  /** Parley's webhook URL (POST). */
  webhookUrl: string;
  /** The business number's phone_number_id. */
  phoneNumberId: string;
  /** The caller's WhatsApp id (E.164 digits, with or without "+"). */
  from: string;
  callerName?: string;
  /** What the caller says first, 16 kHz PCM, played once media flows (then silence); `say` adds more. */
  speech?: Int16Array;
  /** Signs with this secret instead of the double's (a forged webhook). */
  signWith?: string;
}

const graphError = (status: number, message: string, type: string, code: number, subcode?: number): DoubleResponse => ({
  status,
  json: {
    error: {
      message,
      type,
      code,
      ...(subcode !== undefined ? { error_subcode: subcode } : {}),
      fbtrace_id: randomUUID().replaceAll("-", "").slice(0, 11),
    },
  },
});

const invalidToken = () =>
  graphError(401, "Invalid OAuth access token - Cannot parse access token", "OAuthException", 190);

const unknownObject = (id: string) =>
  graphError(
    400,
    `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    "GraphMethodException",
    100,
    33,
  );

/** The user's side of one call: what they heard, and how the call went. */
export class DoubleCall {
  readonly heard: Int16Array[] = [];
  /** Resolves with the accept action's SDP answer. */
  readonly accepted: Promise<void>;
  private acceptCall: () => void = () => undefined;
  private rejectCall: (error: Error) => void = () => undefined;
  private player: NodeJS.Timeout | null = null;
  terminatedBy: "business" | "user" | null = null;
  answerSdp: string | null = null;

  constructor(
    readonly callId: string,
    readonly leg: WebrtcAudioLeg,
    readonly options: PlaceCallOptions,
    private readonly sendTerminate: (call: DoubleCall) => Promise<void>,
  ) {
    this.accepted = new Promise((resolve, reject) => {
      this.acceptCall = resolve;
      this.rejectCall = reject;
    });
    this.accepted.catch(() => undefined);
    leg.onAudio((pcm) => this.heard.push(pcm));
  }

  /** Everything heard so far as one buffer. */
  heardPcm(): Int16Array {
    const out = new Int16Array(this.heard.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const frame of this.heard) {
      out.set(frame, at);
      at += frame.length;
    }
    return out;
  }

  /** The user hangs up: the platform posts the terminate webhook. */
  async hangup(): Promise<void> {
    if (this.terminatedBy) return;
    this.terminatedBy = "user";
    this.stop();
    await this.sendTerminate(this);
  }

  /** @internal The business answered (pre_accept / accept): connect media and start talking. */
  async answered(sdp: string): Promise<void> {
    if (this.answerSdp !== null) return;
    this.answerSdp = sdp;
    try {
      await this.leg.acceptAnswer(sdp);
      this.acceptCall();
      await this.leg.connected;
      this.play();
    } catch (error) {
      this.rejectCall(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** @internal The business ended the call. */
  terminated(): void {
    this.terminatedBy ??= "business";
    this.stop();
  }

  /** Samples heard so far (an index to compare what is heard after a point). */
  heardSamples(): number {
    return this.heard.reduce((n, f) => n + f.length, 0);
  }

  /** The caller says this next (16 kHz PCM), after anything still being said. */
  say(speech: Int16Array): void {
    const queued = new Int16Array(this.speaking.length - this.spoken + speech.length);
    queued.set(this.speaking.subarray(this.spoken));
    queued.set(speech, this.speaking.length - this.spoken);
    this.speaking = queued;
    this.spoken = 0;
  }

  private speaking = new Int16Array(0);
  private spoken = 0;

  /** Plays what the caller says, else silence, in real time, 20 ms per packet, as a phone's microphone would. */
  private play(): void {
    if (this.options.speech) this.say(this.options.speech);
    const started = performance.now();
    let sent = 0;
    this.player = setInterval(() => {
      // Catch up on timer lateness so the far end hears real time, not the timer's drift.
      const due = Math.floor((performance.now() - started) / 20) + 1;
      for (; sent < due; sent += 1) {
        const frame = new Int16Array(320);
        const end = Math.min(this.spoken + 320, this.speaking.length);
        frame.set(this.speaking.subarray(this.spoken, end));
        this.spoken = end;
        this.leg.sendAudio(frame);
      }
    }, 20);
  }

  private stop(): void {
    if (this.player) clearInterval(this.player);
    this.player = null;
    this.leg.close();
  }
}

export interface WhatsappDouble {
  /** The Graph API root with its version: Parley's WHATSAPP_GRAPH_API_URL. */
  apiUrl: string;
  /** A local STUN server ("stun:127.0.0.1:<port>"): the phone's legs use it, and so may a test's own legs. */
  stunUrl: string;
  server: DoubleServer;
  /** Every calls-API action received, in order. */
  actions: CallAction[];
  /** WABA ids an app subscribed to. */
  subscriptions: string[];
  webhooks: WebhookExchange[];
  calls: Map<string, DoubleCall>;
  /** A WhatsApp user calls a business number. Resolves once Parley answered the connect webhook. */
  call(options: PlaceCallOptions): Promise<{ call: DoubleCall; webhook: WebhookExchange }>;
  /** GET hub.challenge handshake as Meta does when a webhook is saved. */
  verifyWebhook(url: string, verifyToken: string, challenge?: string): Promise<WebhookExchange>;
  /**
   * Holds the platform's answer to every pre_accept (recorded in `actions` at once) until the
   * returned release is called: Parley's call stays connecting, whatever its network's speed.
   */
  holdPreAccepts(): () => void;
  close(): Promise<void>;
}

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;
}

export async function startWhatsappDouble(options: WhatsappDoubleOptions): Promise<WhatsappDouble> {
  const actions: CallAction[] = [];
  const subscriptions: string[] = [];
  const webhooks: WebhookExchange[] = [];
  const calls = new Map<string, DoubleCall>();
  const stun = await startStunResponder();
  let preAcceptHold: Promise<void> | null = null;
  const numberFor = (request: DoubleRequest, id: string) => {
    const token = bearerToken(request);
    if (!token || !options.numbers.some((n) => n.accessToken === token)) return { error: invalidToken() };
    const number = options.numbers.find((n) => n.phoneNumberId === id && n.accessToken === token);
    return number ? { number } : { error: unknownObject(id) };
  };

  const server = await startDoubleServer(
    [
      {
        method: "GET",
        pattern: `/${GRAPH_VERSION}/:id`,
        handle(request, { id = "" }) {
          const found = numberFor(request, id);
          if (!found.number) return found.error;
          const fields = (request.query.get("fields") ?? "id").split(",");
          const all: Record<string, string> = {
            id,
            display_phone_number: found.number.displayPhoneNumber,
            verified_name: found.number.verifiedName,
          };
          return { status: 200, json: Object.fromEntries(fields.concat("id").map((f) => [f, all[f]])) };
        },
      },
      {
        method: "POST",
        pattern: `/${GRAPH_VERSION}/:waba/subscribed_apps`,
        handle(request, { waba = "" }) {
          const token = bearerToken(request);
          if (!token || !options.numbers.some((n) => n.accessToken === token)) return invalidToken();
          if (!options.numbers.some((n) => n.businessAccountId === waba && n.accessToken === token)) {
            return unknownObject(waba);
          }
          subscriptions.push(waba);
          return { status: 200, json: { success: true } };
        },
      },
      {
        method: "POST",
        pattern: `/${GRAPH_VERSION}/:id/calls`,
        async handle(request, { id = "" }) {
          const found = numberFor(request, id);
          if (!found.number) return found.error;
          const body = jsonObjectOf(request);
          const callId = stringField(body, "call_id") ?? "";
          const action = stringField(body, "action") ?? "";
          const session = body && isRecord(body.session) ? body.session : null;
          const call = calls.get(callId);
          if (!call || !["pre_accept", "accept", "reject", "terminate"].includes(action)) {
            return graphError(400, "(#138000) Invalid call id or action", "OAuthException", 138000);
          }
          const sdp = stringField(session, "sdp") ?? null;
          const sdpType = stringField(session, "sdp_type") ?? null;
          actions.push({ phoneNumberId: id, callId, action, sdpType, sdp, at: server.now() });
          if (action === "pre_accept" && preAcceptHold) await preAcceptHold;
          if (action === "pre_accept" || action === "accept") {
            if (sdpType !== "answer" || !sdp)
              return graphError(400, "(#100) Invalid parameter: session", "OAuthException", 100);
            void call.answered(sdp);
          } else {
            call.terminated();
          }
          return { status: 200, json: { messaging_product: "whatsapp", success: true } };
        },
      },
    ],
    (request) => unknownObject(request.path.split("/").at(-1) ?? ""),
  );

  const notification = (number: DoubleNumber, call: Record<string, unknown>, contacts?: unknown[]) =>
    JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: number.businessAccountId,
          changes: [
            {
              field: "calls",
              value: {
                messaging_product: "whatsapp",
                metadata: {
                  display_phone_number: number.displayPhoneNumber.replace(/\D/g, ""),
                  phone_number_id: number.phoneNumberId,
                },
                ...(contacts ? { contacts } : {}),
                calls: [call],
              },
            },
          ],
        },
      ],
    });

  const post = (url: string, body: string, secret: string) =>
    sendWebhook(webhooks, server.now, {
      url,
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signBody(body, secret) },
      body,
    });

  const numberById = (id: string) => {
    const number = options.numbers.find((n) => n.phoneNumberId === id);
    if (!number) throw new Error(`the double has no number ${id}`);
    return number;
  };

  return {
    apiUrl: `${server.origin}/${GRAPH_VERSION}`,
    stunUrl: stun.url,
    server,
    actions,
    subscriptions,
    webhooks,
    calls,
    async call(placed) {
      const number = numberById(placed.phoneNumberId);
      const from = placed.from.replace(/\D/g, "");
      const to = number.displayPhoneNumber.replace(/\D/g, "");
      const { leg, sdp } = await WebrtcAudioLeg.offer({
        iceServers: [{ urls: stun.url }],
        extraHostAddresses: ["127.0.0.1"],
      });
      const callId = `wacid.${Buffer.from(randomUUID()).toString("base64url")}`;
      const secret = placed.signWith ?? options.appSecret;
      const call = new DoubleCall(callId, leg, placed, async (ended) => {
        const body = notification(number, {
          id: ended.callId,
          from,
          to,
          event: "terminate",
          direction: "USER_INITIATED",
          timestamp: String(Math.floor(Date.now() / 1000)),
          status: "COMPLETED",
        });
        await post(placed.webhookUrl, body, secret);
      });
      calls.set(callId, call);
      const body = notification(
        number,
        {
          id: callId,
          from,
          to,
          event: "connect",
          direction: "USER_INITIATED",
          timestamp: String(Math.floor(Date.now() / 1000)),
          session: { sdp_type: "offer", sdp },
        },
        [{ profile: { name: placed.callerName ?? "WhatsApp user" }, wa_id: from }],
      );
      const webhook = await post(placed.webhookUrl, body, secret);
      return { call, webhook };
    },
    holdPreAccepts() {
      let release = () => {};
      preAcceptHold = new Promise<void>((resolve) => {
        release = () => {
          preAcceptHold = null;
          resolve();
        };
      });
      return release;
    },
    verifyWebhook(url, verifyToken, challenge = String(Math.floor(Math.random() * 1e9))) {
      const query = new URLSearchParams({
        "hub.mode": "subscribe",
        "hub.challenge": challenge,
        "hub.verify_token": verifyToken,
      });
      return sendWebhook(webhooks, server.now, { url: `${url}?${query}`, method: "GET", headers: {}, body: "" });
    },
    async close() {
      for (const call of calls.values()) call.terminated();
      await server.close();
      await stun.close();
    },
  };
}
