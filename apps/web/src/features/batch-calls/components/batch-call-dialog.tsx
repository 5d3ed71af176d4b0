import { type BatchCallSummary, SquadListResponse } from "@parley/contract";
import { useMemo, useState } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { usePhoneNumbers } from "../../../api/phone-numbers.ts";
import { HALF, LTR } from "../../../components/form-fields/field-spec.ts";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { api } from "../../../lib/http-client.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";
import {
  type BatchFormValues,
  batchCallForm,
  batchFormDefaults,
  batchFormValues,
  SQUAD_OPTION,
} from "../forms/batch-call-form.ts";
import { browserTimeZone } from "../forms/zoned-time.ts";
import { CsvField } from "./csv-field.tsx";
import { TimezoneField } from "./timezone-field.tsx";
import { callingHoursFields, retryFields } from "./timing-fields.ts";

export interface BatchSave {
  values: BatchFormValues;
  file: File | null;
}

/**
 * Create a campaign, or edit one that has not started: who calls from which number, the numbers
 * (typed, pasted or a CSV), when it starts, when contacts may be called, retries and limits.
 */
export function BatchCallDialog(props: {
  batch: BatchCallSummary | null;
  onClose: () => void;
  onSubmit: (save: BatchSave) => Promise<void>;
}) {
  const { t, i18n } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const creating = props.batch === null;
  const schema = useMemo(
    () =>
      batchCallForm(
        {
          nameRequired: t("rules.nameRequired"),
          fromRequired: t("rules.fromRequired"),
          scheduleRequired: t("rules.scheduleRequired"),
          schedulePast: t("rules.schedulePast"),
          timezoneInvalid: t("rules.timezoneInvalid"),
          windowEmpty: t("rules.windowEmpty"),
          wholeNumber: (min, max) => t("rules.wholeNumber", { min, max }),
          spendCap: t("rules.spendCap"),
          country: t("rules.country"),
          tooManyNumbers: t("rules.tooManyNumbers"),
        },
        { now: Date.now, creating },
      ),
    [t, creating],
  );
  const form = useSchemaForm(schema, props.batch ? batchFormValues(props.batch) : batchFormDefaults(browserTimeZone()));
  const { control } = form;
  const [file, setFile] = useState<File | null>(null);
  const start = useWatch({ control, name: "start" });
  const windowOn = useWatch({ control, name: "window_enabled" });
  const assistants = useAssistants();
  const squads = useWorkspaceQuery(
    (workspaceId) => [workspaceId, "squads", "list", "campaign"],
    async () => SquadListResponse.parse(await api.request("/squads")).squads,
  );
  const numbers = usePhoneNumbers();

  return (
    <SchemaFormDialog
      form={form}
      title={creating ? t("form.createTitle") : t("form.editTitle")}
      maxWidth="md"
      onClose={props.onClose}
      onValid={(values) => props.onSubmit({ values, file })}
      lockWhileBusy
      submitLabel={creating ? t("form.create") : t("common.save")}
      busyLabel={t("form.saving")}
      fields={[
        { name: "name", label: t("fields.name"), required: true, autoFocus: true },
        {
          kind: "select",
          name: "from_phone_number_id",
          label: t("fields.from"),
          required: true,
          grid: HALF,
          helperText: numbers.error ? t("numbersFailed") : numbers.data?.length === 0 ? t("form.noNumbers") : undefined,
          options: (numbers.data ?? []).map((n) => ({
            value: n.id,
            label: <span dir="ltr">{n.friendly_name ? `${n.friendly_name} (${n.number})` : n.number}</span>,
          })),
        },
        {
          kind: "select",
          name: "agent_id",
          label: t("fields.assistant"),
          grid: HALF,
          helperText: assistants.error ? t("assistantsFailed") : t("form.assistantHelp"),
          options: [
            { value: "", label: <em>{t("form.numbersAssistant")}</em> },
            ...(assistants.data ?? []).map((a) => ({ value: a.id, label: a.name })),
            ...(squads.data ?? []).map((s) => ({
              value: `${SQUAD_OPTION}${s.id}`,
              label: t("form.squadOption", { name: s.name }),
            })),
          ],
        },
        { kind: "heading", title: t("form.numbers") },
        {
          name: "numbers",
          label: creating ? t("fields.numbers") : t("fields.moreNumbers"),
          helperText: t("form.numbersHelp"),
          multiline: true,
          minRows: 3,
          maxRows: 8,
          grid: { xs: 12, sm: 8 },
          slotProps: LTR,
        },
        {
          name: "default_country",
          label: t("fields.defaultCountry"),
          helperText: t("form.defaultCountryHelp"),
          grid: { xs: 12, sm: 4 },
          slotProps: { htmlInput: { maxLength: 2, style: { textTransform: "uppercase" } } },
        },
        { kind: "node", key: "csv", node: <CsvField file={file} onChange={setFile} /> },
        { kind: "heading", title: t("form.schedule") },
        {
          kind: "radios",
          name: "start",
          label: t("fields.start"),
          options: [
            { value: "now", label: t("form.startNow") },
            { value: "later", label: t("form.startLater") },
          ],
        },
        start === "later" && {
          name: "scheduled_local",
          label: t("fields.scheduledTime"),
          type: "datetime-local",
          required: true,
          grid: HALF,
          slotProps: { inputLabel: { shrink: true } },
        },
        { kind: "node", key: "timezone", grid: HALF, node: <TimezoneField control={control} /> },
        { kind: "heading", title: t("form.window") },
        ...callingHoursFields(t, i18n.language, windowOn),
        { kind: "heading", title: t("form.retries") },
        ...retryFields(t),
        { kind: "heading", title: t("form.limits") },
        {
          name: "concurrency",
          label: t("fields.concurrency"),
          helperText: t("form.concurrencyHelp"),
          type: "number",
          grid: HALF,
          slotProps: { htmlInput: { min: 1 } },
        },
        {
          name: "spend_cap",
          label: t("fields.spendCap"),
          helperText: t("form.spendCapHelp"),
          type: "number",
          grid: HALF,
          slotProps: { htmlInput: { min: 0, step: "0.01" } },
        },
      ]}
    />
  );
}
