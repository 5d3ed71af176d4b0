import DownloadIcon from "@mui/icons-material/Download";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { AUDIT_ACTIONS, type AuditAction, type AuditEvent } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { AUDIT_PAGE_SIZE, type AuditFilters, downloadAuditCsv, useAuditEvents } from "../api/privacy-api.ts";

const NO_FILTERS: AuditFilters = { action: "", from: "", to: "" };

/** `recordings: keep → 30, webhook_bodies: 7` — an entry's facts on one line. */
const detailsText = (event: AuditEvent) =>
  Object.entries(event.details)
    .map(([key, value]) => `${key}: ${value ?? "—"}`)
    .join(", ");

/** The workspace's audit log: filters by action and days, pages, and the CSV of what the filters match. */
export function AuditLogCard() {
  const { t, i18n } = useTranslation(["privacy", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const events = useAuditEvents(filters, page);
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const filter = (next: Partial<AuditFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await notice.run(downloadAuditCsv(filters), t("audit.exported"));
    } finally {
      setExporting(false);
    }
  };

  const columns: Column<AuditEvent>[] = [
    { header: t("audit.when"), cell: (e) => date.format(new Date(e.created_at)), sx: { whiteSpace: "nowrap" } },
    { header: t("audit.action"), cell: (e) => t(`actions.${e.action}`) },
    {
      header: t("audit.who"),
      dir: "ltr",
      cell: (e) => e.actor_email ?? (e.actor_user_id ? e.actor_user_id : t("audit.system")),
    },
    {
      header: t("audit.details"),
      dir: "ltr",
      cell: (e) => (
        <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
          {[e.target_type && e.target_id ? `${e.target_type} ${e.target_id}` : "", detailsText(e)]
            .filter(Boolean)
            .join(" · ")}
        </Typography>
      ),
    },
    { header: t("audit.ip"), dir: "ltr", cell: (e) => e.ip ?? "—" },
  ];

  const filtered = filters.action !== "" || filters.from !== "" || filters.to !== "";
  return (
    <SectionCard title={t("audit.title")}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t("audit.hint")}
      </Typography>
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap", alignItems: "center", mb: 2 }}>
        <TextField
          select
          size="small"
          label={t("audit.action")}
          value={filters.action}
          onChange={(e) => filter({ action: e.target.value as AuditAction | "" })}
          sx={{ flex: "1 1 200px", maxWidth: 320 }}
        >
          <MenuItem value="">{t("audit.anyAction")}</MenuItem>
          {AUDIT_ACTIONS.map((action) => (
            <MenuItem key={action} value={action}>
              {t(`actions.${action}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          size="small"
          label={t("audit.from")}
          value={filters.from}
          onChange={(e) => filter({ from: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: "1 1 150px", maxWidth: 200 }}
        />
        <TextField
          type="date"
          size="small"
          label={t("audit.to")}
          value={filters.to}
          onChange={(e) => filter({ to: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ flex: "1 1 150px", maxWidth: 200 }}
        />
        {filtered && <Button onClick={() => filter(NO_FILTERS)}>{t("audit.clear")}</Button>}
        <Button
          startIcon={<DownloadIcon />}
          disabled={exporting || !events.data?.total_count}
          onClick={() => void exportCsv()}
        >
          {t("audit.csv")}
        </Button>
      </Box>
      {events.isPending ? (
        <ListSkeleton label={t("common.loading")} />
      ) : events.error ? (
        <Alert severity="error">{errorText(events.error, t("common.failed"))}</Alert>
      ) : !events.data?.data.length ? (
        <EmptyState
          title={filtered ? t("audit.noneMatch") : t("audit.emptyTitle")}
          hint={filtered ? t("audit.noneMatchHint") : t("audit.emptyHint")}
        />
      ) : (
        // A wide log scrolls in its own region, reachable from the keyboard (its rows hold no controls).
        <Box role="region" aria-label={t("audit.title")} tabIndex={0} sx={{ overflowX: "auto" }}>
          <DataTable
            label={t("audit.title")}
            rows={events.data.data}
            columns={columns}
            size="small"
            container="none"
            pagination={{ count: events.data.total_count, page, pageSize: AUDIT_PAGE_SIZE, onPage: setPage }}
          />
        </Box>
      )}
    </SectionCard>
  );
}
