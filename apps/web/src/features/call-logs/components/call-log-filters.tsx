import Box from "@mui/material/Box";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import TextField from "@mui/material/TextField";
import { AnalysisStatus, CallChannel, CallStatus, SuccessFilter } from "@parley/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { menuItems, type Option, optionsOf } from "../../../components/menu-options.tsx";

export interface Filters {
  agent_id?: string;
  status?: string;
  channel?: string;
  date_from?: string;
  date_to?: string;
  search?: string;
  /** Post-call analysis: the success verdict as a yes/no, and the analysis's own state. */
  success?: string;
  analysis_status?: string;
}

type ChoiceKey = "agent_id" | "status" | "channel" | "success" | "analysis_status";

/** The date range's two ends. */
const DATES = [
  { key: "date_from", label: "filters.from" },
  { key: "date_to", label: "filters.to" },
] as const;

function Choice(props: {
  id: string;
  label: string;
  value: string | undefined;
  options: readonly Option[];
  onChange: (value: string | undefined) => void;
}) {
  const { t } = useTranslation("call-logs");
  return (
    <FormControl size="small" fullWidth>
      <InputLabel id={props.id}>{props.label}</InputLabel>
      <Select
        labelId={props.id}
        label={props.label}
        value={props.value ?? ""}
        onChange={(e) => props.onChange(e.target.value || undefined)}
      >
        <MenuItem value="">{t("filters.any")}</MenuItem>
        {menuItems(props.options)}
      </Select>
    </FormControl>
  );
}

/** Assistant, status, channel, analysis verdict and state, date range and transcript search; the search is debounced. */
export function CallLogFilters({ value, onChange }: { value: Filters; onChange: (next: Filters) => void }) {
  const { t } = useTranslation("call-logs");
  const { t: ta } = useTranslation("call-analysis");
  const assistants = useAssistants();
  const [search, setSearch] = useState(value.search ?? "");
  const set = (patch: Filters) => onChange({ ...value, ...patch });
  const choices: { key: ChoiceKey; id: string; label: string; options: Option[] }[] = [
    {
      key: "agent_id",
      id: "filter-assistant",
      label: t("filters.assistant"),
      options: (assistants.data ?? []).map((a) => ({ value: a.id, label: a.name })),
    },
    {
      key: "status",
      id: "filter-status",
      label: t("filters.status"),
      options: optionsOf(CallStatus.options, (s) => t(`status.${s}`)),
    },
    {
      key: "channel",
      id: "filter-channel",
      label: t("filters.channel"),
      options: optionsOf(CallChannel.options, (c) => t(`channel.${c}`)),
    },
    {
      key: "success",
      id: "filter-success",
      label: ta("filters.success"),
      options: optionsOf(SuccessFilter.options, (v) => ta(`filters.${v}`)),
    },
    {
      key: "analysis_status",
      id: "filter-analysis",
      label: ta("filters.analysis"),
      options: optionsOf(AnalysisStatus.options, (v) => ta(`filters.status.${v}`)),
    },
  ];

  useEffect(() => {
    if ((value.search ?? "") === search.trim()) return;
    const timer = setTimeout(() => onChange({ ...value, search: search.trim() || undefined }), 350);
    return () => clearTimeout(timer);
  }, [search, value, onChange]);

  return (
    // A grid, not a wrapping row: wrapped filters line up in columns at every width (one column on phones).
    <Box
      data-testid="call-log-filters"
      sx={{
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "1fr", sm: "repeat(auto-fill, minmax(180px, 1fr))" },
        mb: 2,
      }}
    >
      <TextField
        fullWidth
        size="small"
        label={t("filters.search")}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        slotProps={{ htmlInput: { dir: "auto" } }}
      />
      {choices.map((choice) => (
        <Choice
          key={choice.key}
          id={choice.id}
          label={choice.label}
          value={value[choice.key]}
          options={choice.options}
          onChange={(next) => set({ [choice.key]: next })}
        />
      ))}
      {DATES.map(({ key, label }) => (
        <TextField
          key={key}
          fullWidth
          size="small"
          type="date"
          label={t(label)}
          value={value[key] ?? ""}
          onChange={(e) => set({ [key]: e.target.value || undefined })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      ))}
    </Box>
  );
}
