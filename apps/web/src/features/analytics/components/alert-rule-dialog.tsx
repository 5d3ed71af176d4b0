import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import {
  ALERT_KINDS,
  ALERT_WINDOW_CALLS,
  ALERT_WINDOW_HOURS,
  type AlertKind,
  type AlertRule,
  LATENCY_COMPONENTS,
  type LatencyComponent,
} from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { type FilterChoice, useSaveRule } from "../api/analytics-api.ts";

const RATE_KINDS: AlertKind[] = ["success_rate_below", "error_rate_above"];

/** Adds or changes an alert rule; the fields shown follow the rule's kind. */
export function AlertRuleDialog(props: {
  rule?: AlertRule;
  defaultEmail: string;
  assistants: FilterChoice[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation("analytics");
  const save = useSaveRule();
  const { rule } = props;
  const [name, setName] = useState(rule?.name ?? "");
  const [kind, setKind] = useState<AlertKind>(rule?.kind ?? "success_rate_below");
  const [threshold, setThreshold] = useState(String(rule?.threshold ?? 80));
  const [windowCalls, setWindowCalls] = useState(String(rule?.window_calls ?? ALERT_WINDOW_CALLS.default));
  const [windowHours, setWindowHours] = useState(String(rule?.window_hours ?? ALERT_WINDOW_HOURS.default));
  const [component, setComponent] = useState<LatencyComponent>(rule?.component ?? "voice_to_voice");
  const [emails, setEmails] = useState((rule?.emails ?? [props.defaultEmail]).join(", "));
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  const [assistantId, setAssistantId] = useState(rule?.assistant_id ?? "");
  // A rule's assistant without calls in the page's range is still offered.
  const assistants =
    assistantId && !props.assistants.some((a) => a.id === assistantId)
      ? [...props.assistants, { id: assistantId, name: assistantId }]
      : props.assistants;
  const submit = async () => {
    await save.mutateAsync({
      id: rule?.id,
      body: {
        name,
        kind,
        threshold: Number(threshold),
        window_calls: Number(windowCalls),
        window_hours: Number(windowHours),
        component,
        assistant_id: assistantId || null,
        emails: emails
          .split(/[,\s]+/)
          .map((e) => e.trim())
          .filter(Boolean),
        enabled,
      },
    });
    props.onSaved();
  };
  const half = { xs: 12, sm: 6 };
  return (
    <FormDialog
      title={rule ? t("alerts.edit") : t("alerts.add")}
      onClose={props.onClose}
      onSubmit={(event) => {
        event.preventDefault();
        return submit();
      }}
      busy={save.isPending}
      submitLabel={t("alerts.save")}
    >
      <Grid size={12}>
        <TextField
          label={t("alerts.name")}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          fullWidth
          autoFocus
        />
      </Grid>
      <Grid size={half}>
        <TextField
          select
          label={t("alerts.kind")}
          value={kind}
          onChange={(e) => setKind(e.target.value as AlertKind)}
          fullWidth
        >
          {ALERT_KINDS.map((k) => (
            <MenuItem key={k} value={k}>
              {t(`kind.${k}`)}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={half}>
        <TextField
          type="number"
          label={t(`thresholdLabel.${kind}`)}
          value={threshold}
          onChange={(e) => setThreshold(e.target.value)}
          required
          fullWidth
          slotProps={{ htmlInput: { min: 0, max: RATE_KINDS.includes(kind) ? 100 : undefined, step: "any" } }}
        />
      </Grid>
      {RATE_KINDS.includes(kind) && (
        <Grid size={half}>
          <TextField
            type="number"
            label={t("alerts.windowCalls")}
            value={windowCalls}
            onChange={(e) => setWindowCalls(e.target.value)}
            fullWidth
            slotProps={{ htmlInput: { min: ALERT_WINDOW_CALLS.min, max: ALERT_WINDOW_CALLS.max } }}
          />
        </Grid>
      )}
      {kind === "p95_latency_above" && (
        <>
          <Grid size={half}>
            <TextField
              type="number"
              label={t("alerts.windowHours")}
              value={windowHours}
              onChange={(e) => setWindowHours(e.target.value)}
              fullWidth
              slotProps={{ htmlInput: { min: ALERT_WINDOW_HOURS.min, max: ALERT_WINDOW_HOURS.max } }}
            />
          </Grid>
          <Grid size={half}>
            <TextField
              select
              label={t("alerts.component")}
              value={component}
              onChange={(e) => setComponent(e.target.value as LatencyComponent)}
              fullWidth
            >
              {LATENCY_COMPONENTS.map((c) => (
                <MenuItem key={c} value={c}>
                  {t(`component.${c}`)}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
        </>
      )}
      {assistants.length > 0 ? (
        <Grid size={12}>
          <TextField
            select
            label={t("alerts.assistant")}
            value={assistantId}
            onChange={(e) => setAssistantId(e.target.value)}
            fullWidth
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          >
            <MenuItem value="">{t("alerts.allAssistants")}</MenuItem>
            {assistants.map((a) => (
              <MenuItem key={a.id} value={a.id}>
                {a.name}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
      ) : null}
      <Grid size={12}>
        <TextField
          label={t("alerts.emails")}
          helperText={t("alerts.emailsHint")}
          value={emails}
          onChange={(e) => setEmails(e.target.value)}
          fullWidth
        />
      </Grid>
      <Grid size={12}>
        <FormControlLabel
          control={<Switch checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />}
          label={t("alerts.enabled")}
        />
      </Grid>
    </FormDialog>
  );
}
