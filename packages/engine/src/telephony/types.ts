/**
 * What Parley needs from a telephony vendor whose calls reach it over a media-stream WebSocket.
 * Each vendor folder `providers/<id>/` implements this from the vendor's documented REST API,
 * webhook markup and stream messages; the server drives calls only through it, so no server file
 * names a vendor. Apart from load-telephony.ts this folder imports nothing from `providers/`: the
 * vendor folders build on it.
 *
 * Audio at this boundary is Parley's: 16-bit mono PCM at 16 kHz in 20 ms frames. The stream codec
 * converts to and from the vendor's wire format (8 kHz μ-law in JSON for most; binary 16-bit
 * linear for some).
 */

/** A workspace's stored secrets for one vendor, or null (the same shape as the providers' Credentials). */
export type Credentials = Record<string, string> | null;

/** The network the REST calls go through (the providers' NetworkDeps satisfies it). */
export interface TelephonyNetwork {
  fetch: typeof fetch;
}

/** A number as the vendor's account lists it. */
export interface VendorNumber {
  /** E.164. */
  number: string;
  /** The vendor's id for the number (its sid or id, the number itself where there is none). */
  providerNumberId: string;
  friendlyName: string;
  /** ISO 3166-1 alpha-2 when the vendor says. */
  country: string | null;
}

/** Where the vendor should send a number's or call's webhooks (absolute URLs under PUBLIC_URL). */
export interface WebhookUrls {
  /** POST: the call was answered / is ringing in; answer with markup. */
  voiceUrl: string;
  /** POST: the call's status changed. */
  statusUrl: string;
  /** wss: where the markup points the media stream. */
  streamUrl: string;
}

/** One vendor account: its credentials, the network to reach it and an optional API origin override. */
export interface TelephonyAccount {
  credentials: Credentials;
  net: TelephonyNetwork;
  /** Replaces the vendor's API origin (a regional edge, or a local double in tests). */
  baseUrl?: string | undefined;
}

/** A webhook request as the server received it, for signature checks and parsing. */
export interface WebhookRequest {
  /** The full public URL the vendor called (PUBLIC_URL + path + query), as the vendor signed it. */
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string | undefined>;
  /** The raw body (form-encoded or JSON, as the vendor sent it). */
  rawBody: string;
}

/** A signed webhook's one-use id, and when its signature expires (after which the id need not be kept). */
export interface WebhookNonce {
  id: string;
  expiresAt: Date;
}

/** A call as the voice webhook describes it. */
export interface IncomingCall {
  providerCallId: string;
  /** E.164 or SIP URI of the caller. */
  from: string;
  /** The number called (E.164). */
  to: string;
  direction: "inbound" | "outbound";
  /**
   * For a call Parley placed, the id placeCall returned when the vendor's webhooks name the call
   * by another id (a request id first, the call's own id later); match the call log on it.
   */
  placedCallId?: string | undefined;
}

/** Call status, normalised from the vendor's callback vocabulary. */
export type TelephonyCallStatus =
  | "queued"
  | "ringing"
  | "in-progress"
  | "completed"
  | "busy"
  | "no-answer"
  | "failed"
  | "canceled";

export interface StatusUpdate {
  providerCallId: string;
  status: TelephonyCallStatus;
  /** Seconds the vendor billed, when it says. */
  durationSeconds?: number | undefined;
  /** Answering-machine detection result, when the vendor reports one. */
  answeredBy?: "human" | "machine" | "unknown" | undefined;
  /** As IncomingCall.placedCallId: the id placeCall returned, when the webhook names it too. */
  placedCallId?: string | undefined;
}

/** The markup (an XML document or a JSON call-control object, per vendor) that answers a voice webhook. */
export interface WebhookAnswer {
  contentType: string;
  body: string;
}

/** Values the markup hands to the stream, read back from its start message. */
export type StreamParameters = Record<string, string>;

/** A stream message, decoded. */
export type StreamEvent =
  | { type: "connected" }
  | { type: "start"; providerCallId: string; streamId: string; parameters: StreamParameters }
  /** 20 ms (or whatever the vendor sent) of caller audio, as 16 kHz PCM. */
  | { type: "audio"; pcm: Int16Array }
  | { type: "dtmf"; digit: string }
  /** The vendor has played out everything up to this mark. */
  | { type: "mark"; name: string }
  | { type: "stop" };

/** One call's stream codec: stateful (sequence numbers, stream id, resampler state). */
export interface StreamCodec {
  /** The sample rate of the caller's line the stream carries (8000: G.711 μ-law); absent: 16 kHz. */
  readonly lineRate?: number;
  /** Decodes one WebSocket message (text or binary) into zero or more events. */
  decode(data: string | Buffer, isBinary: boolean): StreamEvent[];
  /** Encodes assistant audio (16 kHz PCM) into the messages to send. */
  encodeAudio(pcm: Int16Array): Array<string | Buffer>;
  /**
   * Takes assistant audio that will not be sent (the silence between replies, of which only a
   * keepalive goes out): the codec's resampler and framing move on exactly as `encodeAudio` would
   * move them, without building the messages. Absent: `encodeAudio` is called and its messages dropped.
   */
  skipAudio?(pcm: Int16Array): void;
  /** Asks the vendor to report when playout reaches this point; null when it has no marks. */
  encodeMark(name: string): string | null;
  /** Drops audio queued at the vendor (barge-in); null when it has no such message. */
  encodeClear(): string | null;
}

export interface PlaceCallRequest {
  from: string;
  to: string;
  urls: WebhookUrls;
  /** Ask the vendor to detect an answering machine, when it can. */
  machineDetection: boolean;
}

/** A call looked for at the vendor by its ends and when it was asked for (TelephonyAdapter.findCall). */
export interface PlacedCallQuery {
  from: string;
  to: string;
  /** Calls the vendor created before this are not it. */
  since: Date;
}

export interface TransferRequest {
  providerCallId: string;
  /** E.164 or a SIP URI. */
  destination: string;
  /** The number shown to the transfer target. */
  callerId: string;
  /** Where the vendor reports on the transferred leg. */
  statusUrl: string;
  /**
   * For vendors that only take markup by URL (those with `transferMarkup`): a URL under PUBLIC_URL
   * where the server answers the vendor's POST with `transferMarkup(request)`.
   */
  markupUrl?: string | undefined;
}

/**
 * Where a call's media stream runs. A vendor whose only way to act on a live call is to replace its
 * markup (which ends the current stream) uses it to reopen the stream with the same parameters, so
 * the call carries on; the server then sees a second stream (a new WebSocket, a new `start`) for
 * the same call.
 */
export interface StreamResume {
  urls: WebhookUrls;
  parameters: StreamParameters;
}

/** A live call and the conference it is moved into (a warm transfer). */
export interface ConferenceRequest {
  providerCallId: string;
  /** The conference's name: unique per transfer, so two transfers never share a room. */
  conference: string;
}

/** The call to the human a warm transfer briefs: it opens a media stream to Parley when answered. */
export interface BriefingCallRequest {
  /** Parley's number on the call (the caller id the human sees). */
  from: string;
  /** E.164 or a SIP URI. */
  to: string;
  /** Where the human's leg streams, and the parameters its start message carries back. */
  streamUrl: string;
  parameters: StreamParameters;
  /** Where the vendor reports on the human's leg. */
  statusUrl: string;
  /** How long to ring before the vendor gives up (no-answer). */
  timeoutSeconds: number;
}

/**
 * Conferences, for warm transfers: the caller waits in a named conference (with the vendor's hold
 * music) while the assistant briefs the human on a call of its own, then the human's call joins the
 * same conference and Parley is out of both. Each step is one REST request.
 */
export interface ConferenceControl {
  /** Moves the live call into the conference, on hold until the human joins (its stream ends). */
  holdInConference(account: TelephonyAccount, request: ConferenceRequest): Promise<void>;
  /** Dials the human with markup that opens a media stream; returns the new call's id. */
  dialForBriefing(account: TelephonyAccount, request: BriefingCallRequest): Promise<string>;
  /** Moves the (briefed) human's call into the conference: the caller and the human talk. */
  joinConference(account: TelephonyAccount, request: ConferenceRequest): Promise<void>;
  /** The call's status now (polled while the human's phone rings: busy, no-answer…). */
  callStatus(account: TelephonyAccount, providerCallId: string): Promise<TelephonyCallStatus>;
  /** Replaces the call's markup with a spoken message and a hang-up (the human did not answer). */
  sayAndHangup(account: TelephonyAccount, providerCallId: string, message: string): Promise<void>;
}

/** What a vendor adapter supports, for docs, the UI and the server's choices. */
export interface TelephonyFeatures {
  /** The assistant can brief a human in a conference before the caller joins. */
  warmTransfer: boolean;
  /** Answering-machine detection on outbound calls. */
  machineDetection: boolean;
  /** The stream reports playout position (StreamCodec.encodeMark returns messages). */
  marks: boolean;
  /** The stream can drop queued audio (StreamCodec.encodeClear returns a message). */
  clear?: boolean;
  /** How sendDtmf reaches the far end, in a few words (for docs). */
  dtmfOut?: string;
}

export interface TelephonyAdapter {
  /** Lists the account's numbers; throws TelephonyError("credentials") when the vendor refuses the keys. */
  listNumbers(account: TelephonyAccount): Promise<VendorNumber[]>;
  /** Points a number's voice and status webhooks at Parley. */
  configureNumber(account: TelephonyAccount, number: VendorNumber, urls: WebhookUrls): Promise<void>;
  /** True when the webhook carries the vendor's valid signature for this account. */
  verifyWebhook(account: TelephonyAccount, request: WebhookRequest): boolean | Promise<boolean>;
  /**
   * The one-use id a vendor puts in a webhook's signature (a JWT's `jti`) and until when its
   * signature stays acceptable, read from a webhook verifyWebhook accepted: the server claims it
   * once, so the same signed request is refused when sent again. Absent for vendors whose
   * signatures carry no such id; null when the request has none.
   */
  webhookNonce?(request: WebhookRequest): WebhookNonce | null;
  /** Reads a voice webhook. */
  parseIncomingCall(request: WebhookRequest): IncomingCall;
  /** Reads a status webhook; null when it is not about a call's status. */
  parseStatus(request: WebhookRequest): StatusUpdate | null;
  /**
   * The markup that connects the call to Parley's stream, with parameters to read back at start.
   * `call` (from parseIncomingCall) lets a vendor whose stream does not name the call carry its id
   * to the start event; pass it when there is one.
   */
  answerWithStream(urls: WebhookUrls, parameters: StreamParameters, call?: IncomingCall): WebhookAnswer;
  /**
   * The answer that turns a new call away as busy before it is answered (the server is saturated):
   * the vendor's own reject, so the caller hears a busy signal and the account is not billed. `text`
   * says why, for a vendor that can only speak it. Absent for a vendor with no such answer.
   */
  rejectBusy?(text: string): WebhookAnswer;
  createStreamCodec(): StreamCodec;
  /** Dials out; returns the vendor's call id. The vendor calls voiceUrl once answered. */
  placeCall(account: TelephonyAccount, request: PlaceCallRequest): Promise<string>;
  /**
   * The vendor's id of a call from `from` to `to` it created since `since`, or null when it has
   * none: whether a request to place a call reached the vendor when the process that sent it died
   * before reading the answer (the campaign dialer's crash recovery). Absent where the vendor
   * offers no such lookup; that recovery then assumes the call was placed.
   */
  findCall?(account: TelephonyAccount, query: PlacedCallQuery): Promise<string | null>;
  /** Moves the live call to the destination (the stream ends); the call log records it. */
  transfer(account: TelephonyAccount, request: TransferRequest): Promise<void>;
  /**
   * The markup that dials the transfer target, for vendors whose transfer fetches markup from a
   * URL (TransferRequest.markupUrl) instead of taking it inline; absent for the others.
   */
  transferMarkup?(request: TransferRequest): WebhookAnswer;
  /**
   * Plays DTMF tones to the far end through the vendor's mechanism. `resume` lets a vendor that can
   * only do it by replacing the call's markup reopen the stream afterwards (see StreamResume); the
   * others ignore it.
   */
  sendDtmf(account: TelephonyAccount, providerCallId: string, digits: string, resume?: StreamResume): Promise<void>;
  hangup(account: TelephonyAccount, providerCallId: string): Promise<void>;
  /** Conferences for warm transfers; present exactly when `features.warmTransfer` is true. */
  conference?: ConferenceControl;
  /** What this vendor supports, for docs and the UI. */
  readonly features: TelephonyFeatures;
}

export type TelephonyErrorKind = "credentials" | "not_found" | "unavailable" | "rejected";

/**
 * A vendor refused or failed a telephony request; `kind` lets the server choose the §8 text. A
 * request that reached no answer (`status` unset) names the `origin` it tried, so the user can tell
 * a wrong API address from a refusal.
 */
export class TelephonyError extends Error {
  constructor(
    readonly provider: string,
    readonly kind: TelephonyErrorKind,
    message: string,
    readonly status?: number,
    readonly origin?: string,
  ) {
    super(message);
    this.name = "TelephonyError";
  }
}
