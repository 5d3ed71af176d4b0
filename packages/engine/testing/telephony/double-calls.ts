import type { DoubleRequest, DoubleServer, WebhookExchange } from "./double-server.ts";
import type {
  CallHandle,
  DtmfOutRecord,
  InboundOptions,
  OutboundOutcome,
  SimulatedCall,
  TransferRecord,
} from "./simulated-call.ts";

/** How the far end answers an outbound call (the callee of a call Parley places). */
export interface OutboundBehaviour {
  outcome: OutboundOutcome;
  /** What the callee (or the machine's greeting) says once the stream opens, 16 kHz PCM. */
  speech?: Int16Array;
  dtmf?: string[];
  /** Ringing time before the outcome (ms). */
  ringMs?: number;
}

/** Sends one webhook about a call (voice, status, action), signed as the vendor signs them. */
export type SignedWebhook<C extends SimulatedCall> = (
  call: C,
  url: string,
  method: string,
  params: Record<string, string>,
) => Promise<WebhookExchange>;

/** The members every telephony double shares, whatever the vendor (see README.md, "Common shape"). */
export interface TelephonyDouble<C extends SimulatedCall> {
  /** http://127.0.0.1:<port>: Parley's adapter baseUrl (in place of the vendor's API host). */
  origin: string;
  requests: DoubleRequest[];
  /** Webhooks the double sent to Parley, with the answers. */
  webhooks: WebhookExchange[];
  calls: Map<string, C>;
  transfers: TransferRecord[];
  dtmfOut: DtmfOutRecord[];
  /** Sets how the next outbound calls are answered. */
  setOutbound(behaviour: OutboundBehaviour): void;
  ringInbound(number: string, from: string, options?: InboundOptions): Promise<CallHandle<C>>;
  /** Resolves when a call matching `where` exists (e.g. the one Parley just placed). */
  waitForCall(where: (call: C) => boolean, timeoutMs?: number): Promise<C>;
  /** Ends live calls (final callbacks sent) and stops the server. */
  close(): Promise<void>;
}

/**
 * The call records a double keeps (calls, webhooks sent, transfers, DTMF played) and the outbound
 * behaviour tests set: the same bookkeeping for every vendor, so a double only writes its protocol.
 */
export class DoubleCalls<C extends SimulatedCall> {
  readonly calls = new Map<string, C>();
  readonly webhooks: WebhookExchange[] = [];
  readonly transfers: TransferRecord[] = [];
  readonly dtmfOut: DtmfOutRecord[] = [];
  /** Read when a call is placed: a later `setOutbound` does not change calls already dialling. */
  outbound: OutboundBehaviour;
  private readonly waiters = new Set<() => void>();

  constructor(
    /** The vendor's name in timeout errors. */
    private readonly vendor: string,
    outbound: OutboundBehaviour | undefined,
  ) {
    this.outbound = outbound ?? { outcome: "answer" };
  }

  add(call: C): void {
    this.calls.set(call.id, call);
    for (const wake of this.waiters) wake();
  }

  /** Resolves when a call matching `where` appears (checked now and as calls are added). */
  waitFor(where: (call: C) => boolean, timeoutMs = 30_000): Promise<C> {
    return new Promise<C>((resolve, reject) => {
      const check = () => {
        const found = [...this.calls.values()].find(where);
        if (found === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`No matching ${this.vendor} call within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** Logs DTMF the vendor played on Parley's request, on the call and on the double. */
  recordDtmf(call: C, digits: string, at: number): void {
    const record: DtmfOutRecord = { callId: call.id, digits, at };
    call.dtmfOut.push(record);
    this.dtmfOut.push(record);
  }

  /** Logs a transfer the vendor carried out, on the call and on the double. */
  recordTransfer(call: C, destination: string, callerId: string | undefined, at: number): void {
    const record: TransferRecord = { callId: call.id, destination, callerId, at };
    call.transfers.push(record);
    this.transfers.push(record);
  }

  /** The shared members of the double's public face; `end` hangs up a call still live at close. */
  face(
    server: DoubleServer,
    ringInbound: TelephonyDouble<C>["ringInbound"],
    end: (call: C) => Promise<void>,
  ): TelephonyDouble<C> {
    return {
      origin: server.origin,
      requests: server.requests,
      webhooks: this.webhooks,
      calls: this.calls,
      transfers: this.transfers,
      dtmfOut: this.dtmfOut,
      setOutbound: (behaviour) => {
        this.outbound = behaviour;
      },
      ringInbound,
      waitForCall: (where, timeoutMs) => this.waitFor(where, timeoutMs),
      close: async () => {
        for (const call of this.calls.values()) if (!call.ended) await end(call);
        await server.close();
      },
    };
  }
}
