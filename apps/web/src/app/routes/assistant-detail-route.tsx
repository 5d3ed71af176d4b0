import AssistantDetailPage from "../../features/assistants/pages/assistant-detail-page.tsx";
import { LiveCallPanel } from "../../features/live-call/components/live-call-panel.tsx";

/** /assistants/{assistantId}: the editor, whose test call drawer shows the live-call feature's panel. */
export default function AssistantDetailRoute() {
  return <AssistantDetailPage CallPanel={LiveCallPanel} />;
}
