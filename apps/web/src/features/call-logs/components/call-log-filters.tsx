import FilterList from "@mui/icons-material/FilterList";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Stack from "@mui/material/Stack";
import type { Theme } from "@mui/material/styles";
import TextField from "@mui/material/TextField";
import useMediaQuery from "@mui/material/useMediaQuery";
import { AnalysisStatus, CallChannel, CallStatus, SuccessFilter } from "@parley/contract";
import { type ReactNode, useEffect, useId, useState } from "react";
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

/**
 * The assistant filter on its own: the workspace's assistants arrive after the page has drawn, and
 * TanStack Query hands them over in a render React never slices (useSyncExternalStore). Asked for
 * here, that render is this one field rather than all eight filters (a 50–150 ms task on the
 * Lighthouse phone when the filters re-rendered together).
 */
function AssistantChoice(props: { value: string | undefined; onChange: (value: string | undefined) => void }) {
  const { t } = useTranslation("call-logs");
  const assistants = useAssistants();
  return (
    <Choice
      id="filter-assistant"
      label={t("filters.assistant")}
      value={props.value}
      options={(assistants.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
      onChange={props.onChange}
    />
  );
}

/** Assistant, status, channel, analysis verdict and state, date range and transcript search; the search is debounced. */
export function CallLogFilters({ value, onChange }: { value: Filters; onChange: (next: Filters) => void }) {
  const { t } = useTranslation("call-logs");
  const { t: ta } = useTranslation("call-analysis");
  const [search, setSearch] = useState(value.search ?? "");
  const set = (patch: Filters) => onChange({ ...value, ...patch });
  const choices: { key: Exclude<ChoiceKey, "agent_id">; id: string; label: string; options: Option[] }[] = [
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

  const searchField = (
    <TextField
      fullWidth
      size="small"
      label={t("filters.search")}
      value={search}
      onChange={(e) => setSearch(e.target.value)}
      slotProps={{ htmlInput: { dir: "auto" } }}
    />
  );
  const fields = (
    <>
      <AssistantChoice value={value.agent_id} onChange={(agent_id) => set({ agent_id })} />
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
    </>
  );
  const keys: (keyof Filters)[] = ["agent_id", ...choices.map((c) => c.key), ...DATES.map((d) => d.key)];
  const active = keys.filter((key) => value[key]).length;
  return <FilterPanel search={searchField} fields={fields} active={active} />;
}

/**
 * On a phone the search stays in view and the seven other filters fold behind a "Filters" button
 * that counts the ones set: stacked one per line they took the whole first screen and pushed the
 * calls below it. Wider screens show them all, in a grid that lines them up in columns.
 */
function FilterPanel({ search, fields, active }: { search: ReactNode; fields: ReactNode; active: number }) {
  const { t } = useTranslation("call-logs");
  // noSsr: the page renders in the browser only, so its first render already knows the width
  // (otherwise a phone would show every filter for a frame, then fold them).
  const narrow = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"), { noSsr: true });
  const [unfolded, setUnfolded] = useState(false);
  const panelId = useId();
  if (!narrow) {
    return (
      <Box
        data-testid="call-log-filters"
        sx={{ display: "grid", gap: 2, gridTemplateColumns: "repeat(auto-fill, minmax(180px, 1fr))", mb: 2 }}
      >
        {search}
        {fields}
      </Box>
    );
  }
  return (
    <Box data-testid="call-log-filters" sx={{ mb: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        {search}
        <Button
          variant={active > 0 ? "contained" : "outlined"}
          startIcon={<FilterList />}
          aria-expanded={unfolded}
          aria-controls={unfolded ? panelId : undefined}
          onClick={() => setUnfolded((open) => !open)}
          sx={{ flexShrink: 0, whiteSpace: "nowrap" }}
        >
          {active > 0 ? t("filters.toggleActive", { count: active }) : t("filters.toggle")}
        </Button>
      </Stack>
      {unfolded && (
        <Box id={panelId} sx={{ display: "grid", gap: 2, mt: 2 }}>
          {fields}
        </Box>
      )}
    </Box>
  );
}
