import { ProviderError } from "../provider-error.ts";
import type { NetworkDeps } from "../types.ts";
import { networkError, statusError } from "./http-errors.ts";

/** One server-sent event: its `event:` name (or "message") and its joined `data:` lines. */
export interface SseEvent {
  event: string;
  data: string;
}

export interface StreamTimeouts {
  /** Request sent → first event. */
  firstEventMs: number;
  /** Longest silence allowed between two events. */
  idleMs: number;
}

export const DEFAULT_STREAM_TIMEOUTS: StreamTimeouts = { firstEventMs: 15_000, idleMs: 10_000 };

export interface SseRequest {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  net: NetworkDeps;
  signal?: AbortSignal;
  timeouts?: Partial<StreamTimeouts>;
}

/**
 * POSTs a JSON body and yields the server-sent events of the response. The first event and every
 * gap after it are bounded; failures come out as ProviderErrors; the caller's signal, a timeout or
 * the consumer leaving the loop all cancel the HTTP request.
 */
export async function* streamSse(request: SseRequest): AsyncGenerator<SseEvent> {
  const timeouts = { ...DEFAULT_STREAM_TIMEOUTS, ...request.timeouts };
  const guard = new RequestGuard(request.provider, request.signal);
  guard.arm(timeouts.firstEventMs, "no response");
  try {
    const response = await guard.run(() =>
      request.net.fetch(request.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...request.headers },
        body: JSON.stringify(request.body),
        signal: guard.signal,
      }),
    );
    if (!response.ok) throw await statusError(request.provider, response);
    if (!response.body) throw new ProviderError(request.provider, "response has no body", true);
    const parser = new SseParser();
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await guard.run(() => reader.read());
        const text = done ? `${decoder.decode()}\n\n` : decoder.decode(value, { stream: true });
        for (const event of parser.push(text)) {
          // Only the vendor's silence counts: a consumer busy with the last event is not a stall.
          guard.disarm();
          yield event;
          guard.arm(timeouts.idleMs, "stream stalled: no data");
        }
        if (done) return;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
  } finally {
    guard.dispose();
  }
}

/** Ties the request's lifetime to the caller's signal and to a resettable silence timer. */
class RequestGuard {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timeoutError: ProviderError | null = null;
  private readonly onCallerAbort = () => this.controller.abort(this.caller?.reason);

  constructor(
    private readonly provider: string,
    private readonly caller?: AbortSignal,
  ) {
    if (caller?.aborted) this.controller.abort(caller.reason);
    caller?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  arm(ms: number, what: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timeoutError = new ProviderError(this.provider, `${what} within ${ms} ms`, true);
      this.controller.abort(this.timeoutError);
    }, ms);
  }

  disarm(): void {
    clearTimeout(this.timer);
  }

  /** Runs one network step, translating its failure into the reason the request really ended. */
  async run<T>(step: () => Promise<T>): Promise<T> {
    if (this.controller.signal.aborted) throw this.failure(this.controller.signal.reason);
    try {
      return await step();
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): unknown {
    if (this.timeoutError) return this.timeoutError;
    if (this.caller?.aborted) return this.caller.reason ?? error;
    if (error instanceof ProviderError) return error;
    return networkError(this.provider, error);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort();
  }
}

/** Incremental parser of the text/event-stream format (WHATWG HTML §9.2). */
export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];

  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    let newline = this.buffer.search(/\r\n|\r|\n/);
    // A CR at the very end may be the first half of a CRLF split across reads: wait for more.
    while (newline >= 0 && !(newline === this.buffer.length - 1 && this.buffer.endsWith("\r"))) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith("\r\n", newline) ? 2 : 1;
      this.buffer = this.buffer.slice(newline + width);
      const event = this.line(line);
      if (event) out.push(event);
      newline = this.buffer.search(/\r\n|\r|\n/);
    }
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const event = { event: this.event || "message", data: this.data.join("\n") };
      this.event = "";
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    return null;
  }
}
