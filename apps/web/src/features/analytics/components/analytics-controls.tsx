import TuneOutlined from "@mui/icons-material/TuneOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import { useTheme } from "@mui/material/styles";
import TextField from "@mui/material/TextField";
import useMediaQuery from "@mui/material/useMediaQuery";
import { ANALYTICS_DIMENSIONS, type AnalyticsMetric, CallChannel } from "@parley/contract";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnalyticsParams, FilterChoice } from "../api/analytics-api.ts";
import { CHART_METRICS } from "./dashboard-metrics.ts";
import { useMetricFormat } from "./metric-format.ts";

/** Range, bucket, grouping, chart metric and filters: each a labelled field, wrapping on a phone. */
export function AnalyticsControls(props: {
  params: AnalyticsParams;
  chartMetric: AnalyticsMetric;
  choices: { assistants: FilterChoice[]; phoneNumbers: FilterChoice[]; campaigns: FilterChoice[] };
  onChange: (next: Partial<AnalyticsParams> & { chartMetric?: AnalyticsMetric }) => void;
}) {
  const { t } = useTranslation("analytics");
  const f = useMetricFormat();
  const { params, onChange } = props;
  const field = { size: "small" as const, sx: { minWidth: { xs: "100%", sm: 160 } } };
  // A select whose value is "" (no grouping, all assistants) still shows its choice's words.
  const emptyShown = { inputLabel: { shrink: true }, select: { displayEmpty: true } };
  // On a phone the choices beyond the range fold behind a button that counts the ones set, so the
  // figures show on the first screen.
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down("sm"));
  const [open, setOpen] = useState(false);
  const moreId = useId();
  const set = [params.groupBy, params.assistantId, params.phoneNumber, params.campaignId, params.channel].filter(
    Boolean,
  ).length;
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mb: 3 }} role="group" aria-label={t("controls.label")}>
      <TextField
        {...field}
        type="date"
        label={t("controls.from")}
        value={params.from}
        onChange={(e) => e.target.value && onChange({ from: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: params.to } }}
      />
      <TextField
        {...field}
        type="date"
        label={t("controls.to")}
        value={params.to}
        onChange={(e) => e.target.value && onChange({ to: e.target.value })}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: params.from } }}
      />
      {phone && (
        <Button
          variant="outlined"
          startIcon={<TuneOutlined />}
          aria-expanded={open}
          aria-controls={moreId}
          onClick={() => setOpen(!open)}
          sx={{ width: "100%" }}
        >
          {set > 0 ? t("controls.moreSet", { count: set }) : t("controls.more")}
        </Button>
      )}
      {(!phone || open) && (
        <Box id={moreId} sx={{ display: "contents" }}>
          <TextField
            {...field}
            select
            label={t("controls.bucket")}
            value={params.bucket}
            onChange={(e) => onChange({ bucket: e.target.value as AnalyticsParams["bucket"] })}
          >
            {(["day", "week", "month"] as const).map((b) => (
              <MenuItem key={b} value={b}>
                {t(`bucket.${b}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            select
            label={t("controls.groupBy")}
            slotProps={emptyShown}
            value={params.groupBy}
            onChange={(e) => onChange({ groupBy: e.target.value as AnalyticsParams["groupBy"] })}
          >
            <MenuItem value="">{t("controls.noGrouping")}</MenuItem>
            {ANALYTICS_DIMENSIONS.map((d) => (
              <MenuItem key={d} value={d}>
                {t(`dimension.${d}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            select
            label={t("controls.chart")}
            value={props.chartMetric}
            onChange={(e) => onChange({ chartMetric: e.target.value as AnalyticsMetric })}
          >
            {CHART_METRICS.map((m) => (
              <MenuItem key={m} value={m}>
                {f.label(m)}
              </MenuItem>
            ))}
          </TextField>
          <ChoiceField
            label={t("controls.assistant")}
            value={params.assistantId}
            choices={props.choices.assistants}
            onChange={(assistantId) => onChange({ assistantId })}
          />
          <ChoiceField
            label={t("controls.phoneNumber")}
            value={params.phoneNumber}
            choices={props.choices.phoneNumbers}
            onChange={(phoneNumber) => onChange({ phoneNumber })}
          />
          <ChoiceField
            label={t("controls.campaign")}
            value={params.campaignId}
            choices={props.choices.campaigns}
            onChange={(campaignId) => onChange({ campaignId })}
          />
          <TextField
            {...field}
            select
            label={t("controls.channel")}
            slotProps={emptyShown}
            value={params.channel}
            onChange={(e) => onChange({ channel: e.target.value as AnalyticsParams["channel"] })}
          >
            <MenuItem value="">{t("controls.all")}</MenuItem>
            {CallChannel.options.map((c) => (
              <MenuItem key={c} value={c}>
                {/* The channels' names are Home's (its namespace is loaded with this page: see the router). */}
                {t(`channels.${c}`, { ns: "home" })}
              </MenuItem>
            ))}
          </TextField>
        </Box>
      )}
    </Box>
  );
}

/** A filter over the choices with calls in the range; "All" leaves it off. A chosen value stays listed. */
function ChoiceField(props: {
  label: string;
  value: string;
  choices: FilterChoice[];
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation("analytics");
  const listed = props.value && !props.choices.some((c) => c.id === props.value);
  return (
    <TextField
      size="small"
      sx={{ minWidth: { xs: "100%", sm: 160 } }}
      select
      label={props.label}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
    >
      <MenuItem value="">{t("controls.all")}</MenuItem>
      {listed && <MenuItem value={props.value}>{props.value}</MenuItem>}
      {props.choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
