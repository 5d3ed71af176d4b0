import { WEBHOOK_EVENTS, type WebhookEndpoint } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { WebhookForm, type WebhookFormOutput, webhookFormDefaults } from "./webhook-form.ts";

/** Add or change an endpoint: URL, the events it receives, a description, on or off. */
export function WebhookDialog(props: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onSubmit: (values: WebhookFormOutput) => Promise<void>;
}) {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const form = useSchemaForm(WebhookForm, webhookFormDefaults(props.endpoint));
  return (
    <SchemaFormDialog
      form={form}
      title={props.endpoint ? t("editTitle") : t("createTitle")}
      onClose={props.onClose}
      onValid={props.onSubmit}
      fields={[
        {
          name: "url",
          label: t("fields.url"),
          helperText: t("urlHelp"),
          placeholder: "https://example.com/parley-webhook",
          required: true,
          autoFocus: true,
          slotProps: { htmlInput: { dir: "ltr", spellCheck: false, inputMode: "url" } },
        },
        { name: "description", label: t("fields.description") },
        {
          kind: "checkboxes",
          name: "events",
          label: t("fields.events"),
          legend: true,
          required: true,
          errorText: t("eventsRequired"),
          options: WEBHOOK_EVENTS.map((event) => ({
            value: event,
            label: (
              <span>
                <code dir="ltr">{event}</code> — {t(`eventHelp.${event.replace(".", "_")}`)}
              </span>
            ),
          })),
        },
        { kind: "switch", name: "enabled", label: t("fields.enabled") },
      ]}
    />
  );
}
