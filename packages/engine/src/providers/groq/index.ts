import { bearerChatAdapters } from "../chat-completions/vendor.ts";
import type { ChatCompletionChunk, Usage } from "../chat-completions/wire-format.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { GroqStt } from "./stt.ts";

/** Groq reports usage in `x_groq.usage` on the last chunk. */
function groqUsage(chunk: ChatCompletionChunk): Usage | undefined {
  const extra = chunk.x_groq;
  if (typeof extra !== "object" || extra === null || !("usage" in extra)) return undefined;
  const usage = extra.usage;
  if (typeof usage !== "object" || usage === null) return undefined;
  const tokens = (key: string) => {
    const value: unknown = Object.getOwnPropertyDescriptor(usage, key)?.value;
    return typeof value === "number" ? value : undefined;
  };
  return { prompt_tokens: tokens("prompt_tokens"), completion_tokens: tokens("completion_tokens") };
}

const VENDOR = { id: "groq", root: "https://api.groq.com/openai/v1", usageOf: groqUsage };

export default {
  ...bearerChatAdapters(VENDOR, ["llm", "stt"]),
  stt: (options) => new GroqStt(cloudOptions(VENDOR.id, options)),
} satisfies VendorAdapters<"groq">;
