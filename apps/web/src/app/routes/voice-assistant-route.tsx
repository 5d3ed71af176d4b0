import { LiveCallPanel } from "../../features/live-call/components/live-call-panel.tsx";
import VoiceAssistantPage from "../../features/voice-assistant/pages/voice-assistant-page.tsx";

/** /assistant: the voice-assistant page with the live-call feature's panel. */
export default function VoiceAssistantRoute() {
  return <VoiceAssistantPage CallPanel={LiveCallPanel} />;
}
