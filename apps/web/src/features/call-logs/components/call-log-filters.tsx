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

function Choice(props: {
  id: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
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
        {props.options.map((o) => (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ))}
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
      <Choice
        id="filter-assistant"
        label={t("filters.assistant")}
        value={value.agent_id}
        options={(assistants.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
        onChange={(agent_id) => set({ agent_id })}
      />
      <Choice
        id="filter-status"
        label={t("filters.status")}
        value={value.status}
        options={CallStatus.options.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        onChange={(status) => set({ status })}
      />
      <Choice
        id="filter-channel"
        label={t("filters.channel")}
        value={value.channel}
        options={CallChannel.options.map((c) => ({ value: c, label: t(`channel.${c}`) }))}
        onChange={(channel) => set({ channel })}
      />
      <Choice
        id="filter-success"
        label={ta("filters.success")}
        value={value.success}
        options={SuccessFilter.options.map((v) => ({ value: v, label: ta(`filters.${v}`) }))}
        onChange={(success) => set({ success })}
      />
      <Choice
        id="filter-analysis"
        label={ta("filters.analysis")}
        value={value.analysis_status}
        options={AnalysisStatus.options.map((v) => ({ value: v, label: ta(`filters.status.${v}`) }))}
        onChange={(analysis_status) => set({ analysis_status })}
      />
      <TextField
        fullWidth
        size="small"
        type="date"
        label={t("filters.from")}
        value={value.date_from ?? ""}
        onChange={(e) => set({ date_from: e.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        fullWidth
        size="small"
        type="date"
        label={t("filters.to")}
        value={value.date_to ?? ""}
        onChange={(e) => set({ date_to: e.target.value || undefined })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </Box>
  );
}
