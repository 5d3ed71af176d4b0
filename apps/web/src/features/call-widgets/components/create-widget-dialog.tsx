import { useTranslation } from "react-i18next";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { NewWidget } from "../api/call-widgets-api.ts";
import { useAssistantSelect } from "../hooks/use-assistant-select.ts";

/** A name and an assistant; everything else starts from the defaults and is set in the editor. */
export function CreateWidgetDialog(props: { onClose: () => void; onSubmit: (body: NewWidget) => Promise<unknown> }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const form = useSchemaForm(NewWidget, { name: "", assistant_id: "" });
  const assistant = useAssistantSelect<NewWidget>("assistant_id", t, t("assistantHelp"));
  return (
    <SchemaFormDialog
      form={form}
      title={t("createTitle")}
      submitLabel={t("create")}
      onClose={props.onClose}
      onValid={props.onSubmit}
      fields={[{ name: "name", label: t("fields.name"), required: true, autoFocus: true }, assistant]}
    />
  );
}
