import { FrameProcessor } from "../frames/frame-processor.ts";
import type { DataFrame, SystemFrame } from "../frames/frames.ts";
import { SentenceSplitter } from "../text/sentence-splitter.ts";

/** Collects streamed `llm_text` into `sentence` frames, so each sentence can be spoken as soon as it is whole. */
export class SentenceAggregator extends FrameProcessor {
  private readonly splitter = new SentenceSplitter();
  private nextSentence = 1;

  protected override process(frame: DataFrame): void {
    if (frame.type === "llm_text") {
      for (const text of this.splitter.push(frame.text)) this.emit(text, frame.utterance);
    } else if (frame.type === "llm_end") {
      for (const text of this.splitter.flush()) this.emit(text, frame.utterance);
      this.push(frame);
    } else {
      this.push(frame);
    }
  }

  protected override handleSystem(frame: SystemFrame): void {
    if (frame.type === "interruption") this.splitter.reset();
    super.handleSystem(frame);
  }

  private emit(text: string, utterance: number): void {
    this.push({ type: "sentence", text, utterance, sentence: this.nextSentence++ });
  }
}
