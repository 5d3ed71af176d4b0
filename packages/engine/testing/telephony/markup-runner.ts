import type { DoubleCalls, OutboundBehaviour } from "./double-calls.ts";
import type { WebhookExchange } from "./double-server.ts";
import { MarkupParseError, parseXml, type XmlElement } from "./markup-xml.ts";
import type { LegResult, StreamWire } from "./phone-leg.ts";
import { type CallHandle, callHandle, type InboundOptions, SimulatedCall } from "./simulated-call.ts";

/**
 * Runs TwiML-style call markup (Twilio's TwiML and Telnyx's TeXML, which follows it verb for verb)
 * the way the vendors document it: verbs execute in order; <Connect><Stream> holds the call on a
 * bidirectional media stream until it ends, then the next verb (or the action URL) runs; <Start>
 * <Stream> forks the media and goes on at once; <Dial> moves the call to another party; <Play
 * digits> plays DTMF; the call hangs up when the document runs out. An API update replaces the
 * running document (the stream ends, as at the vendors).
 */

/** Status callback events (StatusCallbackEvent); completed is always sent when a URL is set. */
export type StatusEvent = "initiated" | "ringing" | "answered" | "completed";
const STATUS_EVENTS: readonly string[] = ["initiated", "ringing", "answered", "completed"];

function isStatusEvent(value: string): value is StatusEvent {
  return STATUS_EVENTS.includes(value);
}

export class MarkupCall extends SimulatedCall {
  status = "queued";
  statusCallback = "";
  statusCallbackMethod = "POST";
  statusEvents = new Set<StatusEvent>(["completed"]);
  machineDetection = false;
  answeredBy: string | null = null;
  /** The markup documents executed for this call, in order. */
  readonly documents: string[] = [];
  sequence = 0;
  /** The last URL markup came from: relative action and Redirect URLs resolve against it. */
  lastUrl = "";
  constructor(
    readonly accountSid: string,
    /** The vendor's word for the direction ("inbound", "outbound-api"). */
    readonly vendorDirection: string,
    id: string,
    from: string,
    to: string,
    now: () => number,
    /** Sign this call's webhooks with a wrong key (to test that Parley answers 403). */
    readonly forgeSignature: boolean,
  ) {
    super(id, vendorDirection === "inbound" ? "inbound" : "outbound", from, to, now(), now);
  }

  /** StatusCallbackEvent as asked (repeated, or space- or comma-separated); completed always follows. */
  askStatusEvents(values: readonly string[]): void {
    const wanted = values.flatMap((value) => value.split(/[\s,]+/)).filter(isStatusEvent);
    if (wanted.length > 0) this.statusEvents = new Set<StatusEvent>([...wanted, "completed"]);
  }

  /** MachineDetection: Enable and DetectMessageEnd both report who answered. */
  askMachineDetection(value: string | null | undefined): void {
    this.machineDetection = value === "Enable" || value === "DetectMessageEnd";
  }
}

/** What a vendor double gives the runner: its webhooks and its stream protocol. */
export interface MarkupHost<C extends MarkupCall> {
  now(): number;
  /** Where transfers and DTMF sent are logged. */
  book: DoubleCalls<C>;
  /** How long a <Dial>ed party talks before hanging up (ms). */
  dialTalkMs: number;
  /** Requests markup (voice URL, action, Redirect) with the vendor's parameters and signature. */
  requestMarkup(call: C, url: string, method: string): Promise<WebhookExchange>;
  /** Sends one status callback; the runner has already checked the call asked for it. */
  sendStatus(call: C, extra: Record<string, string>): Promise<void>;
  /** The stream wire for a <Stream> element, or an error text when the vendor would refuse it. */
  streamWire(call: C, stream: XmlElement, parameters: Record<string, string>): StreamWire | string;
  /** Rewrites a vendor's own markup (Plivo XML) into the TwiML verbs the runner executes. */
  translate?(root: XmlElement): XmlElement;
  /** Headers of the stream's WebSocket handshake (Plivo signs it). */
  streamHeaders?(call: C, url: string): Record<string, string>;
}

export interface OutboundStart {
  url: string;
  method: string;
  markup: string;
}

/** The fields of an API update of a call, as the vendor's parameters named them. */
export interface UpdateRequest {
  markup: string | null | undefined;
  markupName: string;
  url: string | null | undefined;
  method: string;
}

/** A URL from markup, relative to the document it came from. */
export function resolveUrl(target: string, base: string): string {
  return base ? new URL(target, base).toString() : target;
}

/** One participant's time in a conference. */
export interface ConferenceMembership {
  callId: string;
  /** The conference runs (hold music stops) once a member with this flag is in. */
  startConferenceOnEnter: boolean;
  /** This member leaving ends the conference for everyone. */
  endConferenceOnExit: boolean;
  joinedAt: number;
  leftAt: number | null;
}

/** A named conference as `<Dial><Conference>` builds it: who joined, who is in, whether it ended. */
export class ConferenceRoom {
  readonly memberships: ConferenceMembership[] = [];
  ended = false;
  constructor(readonly name: string) {}

  /** Call ids in the conference now. */
  members(): string[] {
    return this.memberships.filter((m) => m.leftAt === null).map((m) => m.callId);
  }

  /** True while someone who starts the conference is in: the others hear each other, not music. */
  started(): boolean {
    return this.memberships.some((m) => m.leftAt === null && m.startConferenceOnEnter);
  }
}

/** How long the hold loop of a conference member sleeps between looks at its room. */
const CONFERENCE_POLL_MS = 100;

export class MarkupRunner<C extends MarkupCall> {
  /** Conferences by name (`<Dial><Conference>`), kept after they end for tests to inspect. */
  readonly conferences = new Map<string, ConferenceRoom>();
  private readonly callsById = new Map<string, C>();

  constructor(private readonly host: MarkupHost<C>) {}

  async statusCallback(call: C, event: StatusEvent, extra: Record<string, string> = {}): Promise<void> {
    if (!call.statusCallback || !call.statusEvents.has(event)) return;
    call.sequence++;
    await this.host.sendStatus(call, extra);
  }

  async setStatus(call: C, status: string, event: StatusEvent | null): Promise<void> {
    call.status = status;
    call.note(`status ${status}`);
    if (event) await this.statusCallback(call, event);
  }

  /** The call ends with a final status: the completed callback (with CallDuration when answered). */
  async endCall(call: C, status: string): Promise<void> {
    if (call.ended) return;
    call.ended = true;
    call.endedAt = this.host.now();
    await call.interrupt("caller");
    call.status = status;
    call.note(`status ${status}`);
    const extra: Record<string, string> = {};
    if (call.answeredAt !== null) {
      extra.CallDuration = String(call.durationSeconds());
      extra.Duration = String(Math.ceil(call.durationSeconds() / 60));
    }
    await this.statusCallback(call, "completed", extra);
    call.finish();
  }

  /** An outbound call: initiated, ringing, then the behaviour's outcome; answered calls fetch their markup. */
  async runOutbound(call: C, behaviour: OutboundBehaviour, first: OutboundStart, onAnswer?: () => void): Promise<void> {
    const generation = call.generation;
    await this.setStatus(call, "initiated", "initiated");
    if (behaviour.outcome === "failed") return this.endCall(call, "failed");
    await this.setStatus(call, "ringing", "ringing");
    if (!(await call.sleep(behaviour.ringMs ?? 50, generation))) return;
    if (behaviour.outcome === "busy") return this.endCall(call, "busy");
    if (behaviour.outcome === "no-answer") return this.endCall(call, "no-answer");
    call.answeredAt = this.host.now();
    onAnswer?.();
    await this.setStatus(call, "in-progress", "answered");
    call.prepareFarEnd(behaviour);
    if (first.markup) await this.run(call, first.markup, call.generation);
    else await this.fetchAndRun(call, first.url, first.method, call.generation);
  }

  /** Requests markup from a URL (voice URL, Redirect, action) and runs it. */
  async fetchAndRun(call: C, url: string, method: string, generation: number): Promise<void> {
    call.lastUrl = url;
    const exchange = await this.host.requestMarkup(call, url, method);
    if (generation !== call.generation || call.ended) return;
    if (exchange.status < 200 || exchange.status >= 300) {
      // The vendors play an application error and hang up.
      call.note(`webhook ${url} answered ${exchange.status}: application error`);
      return this.endCall(call, "completed");
    }
    await this.run(call, exchange.responseBody, generation);
  }

  /**
   * An incoming call rings: the voice webhook is requested; a 2xx answer runs as the call's markup,
   * anything else fails the call.
   */
  async answerInbound(call: C, inbound: InboundOptions, url: string, method: string): Promise<CallHandle<C>> {
    call.status = "ringing";
    call.prepareFarEnd(inbound);
    this.host.book.add(call);
    call.lastUrl = url;
    const voice = await this.host.requestMarkup(call, url, method);
    if (voice.status < 200 || voice.status >= 300) {
      call.note(`voice webhook answered ${voice.status}`);
      call.status = "failed";
      call.finish();
    } else {
      call.answeredAt = this.host.now();
      call.status = "in-progress";
      void this.run(call, voice.responseBody, call.generation);
    }
    return callHandle(call, voice, () => this.endCall(call, "completed"));
  }

  /**
   * An API update of a live call: new markup (`markupName` is the vendor's parameter, for the
   * timeline) replaces the running document, or else a URL is fetched for it.
   */
  update(call: C, change: UpdateRequest): "updated" | "bad-markup" | "nothing" {
    if (change.markup) {
      try {
        parseXml(change.markup);
      } catch {
        return "bad-markup";
      }
      call.note(`update: ${change.markupName}`);
      void this.replace(call, change.markup);
      return "updated";
    }
    if (change.url) {
      call.note(`update: Url ${change.url}`);
      void this.redirect(call, change.url, change.method);
      return "updated";
    }
    return "nothing";
  }

  /** Replaces what the call is doing with new markup (an API update). */
  async replace(call: C, markup: string): Promise<void> {
    await call.interrupt("vendor");
    await this.run(call, markup, call.generation);
  }

  /** Replaces what the call is doing with markup from a URL (an API update with Url). */
  async redirect(call: C, url: string, method: string): Promise<void> {
    await call.interrupt("vendor");
    await this.fetchAndRun(call, url, method, call.generation);
  }

  /** Executes a document verb by verb; the call completes when the document runs out. */
  async run(call: C, document: string, generation: number): Promise<void> {
    if (call.ended || generation !== call.generation) return;
    call.documents.push(document);
    let root: XmlElement;
    try {
      root = parseXml(document);
      if (this.host.translate) root = this.host.translate(root);
    } catch (error) {
      call.note(`markup parse failure: ${error instanceof MarkupParseError ? error.message : String(error)}`);
      return this.endCall(call, "completed");
    }
    if (root.name !== "Response") {
      call.note("markup without <Response>");
      return this.endCall(call, "completed");
    }
    for (const verb of root.children) {
      if (call.ended || generation !== call.generation) return;
      call.note(`verb <${verb.name}>`);
      const next = await this.runVerb(call, verb, generation);
      if (next === "stop") return;
    }
    if (!call.ended && generation === call.generation) await this.endCall(call, "completed");
  }

  private async runVerb(call: C, verb: XmlElement, generation: number): Promise<"next" | "stop"> {
    const method = (verb.attributes.method ?? "POST").toUpperCase();
    switch (verb.name) {
      case "Connect": {
        const stream = verb.children.find((child) => child.name === "Stream");
        if (!stream) return "next";
        const result = await this.openStream(call, stream);
        if (result.closedBy === "caller" || call.ended || generation !== call.generation) return "stop";
        // The stream ended from the app's side: the action URL or the next verb runs.
        const action = verb.attributes.action;
        if (action) {
          await this.fetchAndRun(call, resolveUrl(action, call.lastUrl), method, generation);
          return "stop";
        }
        return "next";
      }
      case "Start": {
        // A forked stream runs beside the rest of the document.
        const stream = verb.children.find((child) => child.name === "Stream");
        if (stream) void this.openStream(call, stream);
        return "next";
      }
      case "Dial": {
        const nested = verb.children.find((child) =>
          ["Number", "Sip", "Client", "Conference", "Queue"].includes(child.name),
        );
        const destination = (nested?.text ?? verb.text).trim();
        // The forked stream, if any, ends as the call leaves for the other party.
        await call.currentLeg()?.end("vendor");
        if (nested?.name === "Conference") return this.inConference(call, nested, destination, generation);
        this.host.book.recordTransfer(call, destination, verb.attributes.callerId, this.host.now());
        call.note(`dial ${destination}`);
        if (!(await call.sleep(this.host.dialTalkMs, generation))) return "stop";
        if (verb.attributes.action) {
          await this.fetchAndRun(call, resolveUrl(verb.attributes.action, call.lastUrl), method, generation);
          return "stop";
        }
        return "next";
      }
      case "Play": {
        const digits = verb.attributes.digits;
        if (digits !== undefined) {
          this.recordDtmf(call, digits);
          // Each tone plus gap is about 0.2 s; "w" waits half a second.
          const ms = [...digits].reduce((sum, d) => sum + (d === "w" ? 500 : 200), 0);
          if (!(await call.sleep(ms, generation))) return "stop";
        }
        return "next";
      }
      case "Pause": {
        const seconds = Number(verb.attributes.length ?? 1);
        return (await call.sleep(seconds * 1000, generation)) ? "next" : "stop";
      }
      case "Redirect":
        await this.fetchAndRun(call, resolveUrl(verb.text.trim(), call.lastUrl), method, generation);
        return "stop";
      case "Hangup":
        await this.endCall(call, "completed");
        return "stop";
      case "Reject":
        await this.endCall(call, verb.attributes.reason === "busy" ? "busy" : "no-answer");
        return "stop";
      default:
        // <Say>, <Gather>, <Record>… are not simulated: noted and skipped.
        return "next";
    }
  }

  /**
   * `<Dial><Conference>`: the call stays in the named room until its markup is replaced, it hangs
   * up, or a member with endConferenceOnExit leaves (then the rest of its document runs, as at the
   * vendors). Leaving with endConferenceOnExit hangs up everyone still in.
   */
  private async inConference(call: C, element: XmlElement, name: string, generation: number): Promise<"next" | "stop"> {
    const room = this.conferences.get(name) ?? new ConferenceRoom(name);
    this.conferences.set(name, room);
    if (room.ended) return "next";
    this.callsById.set(call.id, call);
    const membership: ConferenceMembership = {
      callId: call.id,
      startConferenceOnEnter: element.attributes.startConferenceOnEnter !== "false",
      endConferenceOnExit: element.attributes.endConferenceOnExit === "true",
      joinedAt: this.host.now(),
      leftAt: null,
    };
    room.memberships.push(membership);
    call.note(`conference ${name}`);
    let stillHere = true;
    while (stillHere && !room.ended) stillHere = await call.sleep(CONFERENCE_POLL_MS, generation);
    membership.leftAt = this.host.now();
    call.note(`left conference ${name}`);
    if (membership.endConferenceOnExit && !room.ended) {
      room.ended = true;
      for (const other of room.members()) {
        const member = this.callsById.get(other);
        if (member && member !== call) void this.endCall(member, "completed");
      }
    }
    return stillHere ? "next" : "stop";
  }

  recordDtmf(call: C, digits: string): void {
    this.host.book.recordDtmf(call, digits, this.host.now());
  }

  recordTransfer(call: C, destination: string, callerId: string | undefined): void {
    this.host.book.recordTransfer(call, destination, callerId, this.host.now());
    call.note(`transfer ${destination}`);
  }

  /** <Stream url>: opens the WebSocket and speaks the vendor's stream protocol until it ends. */
  async openStream(call: C, stream: XmlElement): Promise<LegResult> {
    const url = stream.attributes.url ?? "";
    const parameters: Record<string, string> = {};
    for (const child of stream.children) {
      if (child.name === "Parameter" && child.attributes.name !== undefined)
        parameters[child.attributes.name] = child.attributes.value ?? "";
    }
    if (!/^wss?:\/\//.test(url)) {
      call.note(`<Stream url="${url}"> is not a WebSocket URL`);
      return { closedBy: "error", code: 0, reason: "invalid stream url" };
    }
    const wire = this.host.streamWire(call, stream, parameters);
    if (typeof wire === "string") {
      call.note(wire);
      return { closedBy: "error", code: 0, reason: wire };
    }
    return call.openLeg(url, wire, this.host.streamHeaders?.(call, url)).done;
  }
}
