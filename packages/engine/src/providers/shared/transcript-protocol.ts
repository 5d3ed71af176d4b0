import type { SttOpenOptions } from "../types.ts";
import { parseJsonObject } from "./socket-events.ts";
import { UtteranceText } from "./utterance-text.ts";
import type { SttSink } from "./ws-stt-session.ts";

/**
 * What every vendor's WebSocket STT protocol starts from: its name, where it connects, and the
 * utterance text its messages report into. A vendor adds its frames and reads its JSON `event`s.
 */
export abstract class TranscriptProtocol {
  protected readonly text: UtteranceText;

  constructor(
    readonly provider: string,
    readonly url: string,
    readonly headers: Record<string, string>,
    open: SttOpenOptions,
  ) {
    this.text = new UtteranceText((event) => open.onTranscript(event));
  }

  /** A server message: JSON objects go to `event`; anything else carries nothing to report. */
  message(raw: string, sink: SttSink): void {
    const message = parseJsonObject(raw);
    if (message) this.event(message, sink);
  }

  protected abstract event(message: Record<string, unknown>, sink: SttSink): void;
}
