import { SttBase } from "../stage-bases.ts";
import type { SttOpenOptions, SttSession } from "../types.ts";
import { BufferedSttSession, type UtteranceTranscriber } from "./buffered-stt-session.ts";
import type { CloudProviderOptions } from "./speech-options.ts";
import { type WsSttProtocol, WsSttSession } from "./ws-stt-session.ts";

/**
 * A cloud STT stage that streams over the vendor's WebSocket: the session (queueing, keep-alive,
 * reconnect) is shared, so a vendor gives only its protocol object for one session.
 */
export abstract class StreamingStt<Config> extends SttBase {
  readonly streaming = true;
  /** The vendor's protocol for one session. */
  protected abstract readonly protocol: (open: SttOpenOptions) => WsSttProtocol;

  constructor(protected readonly options: CloudProviderOptions<Config>) {
    super();
  }

  protected async run(open: SttOpenOptions): Promise<SttSession> {
    const session = new WsSttSession(this.protocol(open), this.options.net, open);
    await session.start();
    return session;
  }
}

/**
 * A cloud STT stage that sends each utterance as one request: buffering and ordering are shared, so
 * a vendor writes only `transcribe`.
 */
export abstract class UtteranceStt<Config> extends SttBase implements UtteranceTranscriber {
  readonly streaming = false;
  /** The vendor's name in errors. */
  abstract readonly provider: string;

  constructor(protected readonly options: CloudProviderOptions<Config>) {
    super();
  }

  abstract transcribe(pcm: Int16Array, signal: AbortSignal): Promise<{ text: string; language?: string }>;

  protected async run(open: SttOpenOptions): Promise<SttSession> {
    return new BufferedSttSession(this, open);
  }
}
