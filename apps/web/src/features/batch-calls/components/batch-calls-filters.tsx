import SearchIcon from "@mui/icons-material/Search";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { BATCH_CALL_STATUSES, type BatchCallStatus } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { menuItems, optionsOf } from "../../../components/menu-options.tsx";

/** The special status filter value that shows the archived list instead (spec §4). */
export const ARCHIVED = "archived";
export type StatusFilter = BatchCallStatus | typeof ARCHIVED | "";
export type TypeFilter = "scheduled" | "immediate" | "";

export interface BatchFilters {
  search: string;
  status: StatusFilter;
  type: TypeFilter;
}

export const isStatusFilter = (value: string): value is StatusFilter =>
  value === "" || value === ARCHIVED || BATCH_CALL_STATUSES.some((s) => s === value);
export const isTypeFilter = (value: string): value is TypeFilter =>
  value === "" || value === "scheduled" || value === "immediate";

/** Search by name, status (or the archived list) and type (scheduled or started by hand). */
export function BatchCallsFilters(props: { value: BatchFilters; onChange: (next: BatchFilters) => void }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const { value } = props;
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ mb: 2 }}>
      <TextField
        label={t("filters.search")}
        value={value.search}
        onChange={(e) => props.onChange({ ...value, search: e.target.value })}
        size="small"
        type="search"
        sx={{ minWidth: 240 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        label={t("filters.status")}
        value={value.status}
        onChange={(e) => isStatusFilter(e.target.value) && props.onChange({ ...value, status: e.target.value })}
        size="small"
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">{t("filters.allStatuses")}</MenuItem>
        {menuItems(optionsOf(BATCH_CALL_STATUSES, (s) => t(`status.${s}`)))}
        <MenuItem value={ARCHIVED} divider={false} sx={{ borderTop: 1, borderColor: "divider" }}>
          {t("filters.archived")}
        </MenuItem>
      </TextField>
      <TextField
        select
        label={t("filters.type")}
        value={value.type}
        onChange={(e) => isTypeFilter(e.target.value) && props.onChange({ ...value, type: e.target.value })}
        size="small"
        sx={{ minWidth: 160 }}
      >
        <MenuItem value="">{t("filters.allTypes")}</MenuItem>
        <MenuItem value="scheduled">{t("filters.scheduled")}</MenuItem>
        <MenuItem value="immediate">{t("filters.immediate")}</MenuItem>
      </TextField>
    </Stack>
  );
}
