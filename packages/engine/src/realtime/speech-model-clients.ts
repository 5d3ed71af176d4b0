import { GeminiLiveClient } from "../providers/gemini-live/live-client.ts";
import { RealtimeClient } from "../providers/openai-realtime/realtime-client.ts";
import type { SpeechModelClient, SpeechModelClientOptions } from "../providers/shared/speech-model-client.ts";
import type { ToolSpec } from "../providers/types.ts";
import type { RealtimeModelSettings } from "./speech-model-settings.ts";

/** The parts of a client's options that do not depend on the vendor. */
export type SharedClientOptions = Omit<SpeechModelClientOptions<unknown>, "settings">;

/** The speech-to-speech client of the vendor `realtime.provider` names, set up with the assistant's prompt and tools. */
export function createSpeechModelClient(
  realtime: RealtimeModelSettings,
  prompt: { instructions: string; tools: ToolSpec[] },
  shared: SharedClientOptions,
): SpeechModelClient {
  switch (realtime.provider) {
    case "openai-realtime": {
      const { provider: _provider, ...settings } = realtime;
      return new RealtimeClient({ ...shared, settings: { ...settings, ...prompt } });
    }
    case "gemini-live": {
      const { provider: _provider, ...settings } = realtime;
      return new GeminiLiveClient({ ...shared, settings: { ...settings, ...prompt } });
    }
  }
}
