import { type ComponentProps, lazy, Suspense } from "react";
import { CenteredSpinner } from "../../components/centered-spinner.tsx";
import type { TestCallPanel } from "../../features/assistants/components/test-call-button.tsx";
import AssistantDetailPage from "../../features/assistants/pages/assistant-detail-page.tsx";

// The live call (audio capture and playback, the call's socket, the chat log) shows only once
// someone opens the test-call drawer, so its code is fetched then rather than with the editor.
const LiveCallPanel = lazy(() =>
  import("../../features/live-call/components/live-call-panel.tsx").then((module) => ({
    default: module.LiveCallPanel,
  })),
);

function LazyLiveCallPanel(props: ComponentProps<TestCallPanel>) {
  return (
    <Suspense fallback={<CenteredSpinner />}>
      <LiveCallPanel {...props} />
    </Suspense>
  );
}

/** /assistants/{assistantId}: the editor, whose test call drawer shows the live-call feature's panel. */
export default function AssistantDetailRoute() {
  return <AssistantDetailPage CallPanel={LazyLiveCallPanel} />;
}
