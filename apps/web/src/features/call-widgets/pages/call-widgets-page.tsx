import type { CallWidget } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useAssistants } from "../../../api/assistants.ts";
import { ResourceListPage } from "../../../components/resource-list-page.tsx";
import { paths } from "../../../config/paths.ts";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import { type NewWidget, useCallWidgets, useCreateCallWidget, useDeleteCallWidget } from "../api/call-widgets-api.ts";
import { CreateWidgetDialog } from "../components/create-widget-dialog.tsx";
import { WIDGET_ACTIONS, widgetColumns } from "../components/widget-columns.tsx";

/** /call-widgets: the workspace's embeddable call buttons; a new one opens in its editor. */
export default function CallWidgetsPage() {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const navigate = useNavigate();
  const assistants = useAssistants();
  const assistantName = (id: string) => assistants.data?.find((a) => a.id === id)?.name ?? "—";
  const editorOf = (widget: CallWidget) => `${paths.callWidgets}/${widget.id}`;
  const page = useResourcePage<CallWidget, never, NewWidget, CallWidget>(
    t,
    { save: useCreateCallWidget(), remove: useDeleteCallWidget() },
    // Everything but the name and the assistant is set in the new widget's editor.
    (widget) => {
      navigate(editorOf(widget));
      return null;
    },
  );
  return (
    <ResourceListPage
      page={page}
      t={t}
      title={t("nav.callWidgets")}
      query={useCallWidgets()}
      columns={widgetColumns(t, assistantName)}
      actions={WIDGET_ACTIONS}
      vars={(widget) => ({ name: widget?.name ?? "" })}
      onAction={(action, widget) => (action === "edit" ? navigate(editorOf(widget)) : page.act(action, widget))}
      editor={() => <CreateWidgetDialog onClose={page.close} onSubmit={page.save} />}
    />
  );
}
