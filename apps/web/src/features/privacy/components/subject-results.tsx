import MicIcon from "@mui/icons-material/Mic";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { SubjectRecords } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { useDates } from "../../../lib/dates-in-language.ts";

/** Calls listed on the page; the ZIP holds them all (up to the search's 1 000). */
const SHOWN = 10;

type FoundCall = SubjectRecords["calls"][number];

/** What the search found about one person: counts per kind, then their newest calls. */
export function SubjectResults({ records, who }: { records: SubjectRecords; who: string }) {
  const { t } = useTranslation(["privacy", "translation"], { nsMode: "fallback" });
  const dates = useDates();
  const { calls, campaign_contacts, do_not_call } = records;
  if (calls.length + campaign_contacts.length + do_not_call.length === 0) {
    return (
      <Typography variant="body2" role="status">
        {t("subject.nothing")}{" "}
        <bdi dir="ltr" style={{ fontWeight: 600 }}>
          {who}
        </bdi>
      </Typography>
    );
  }
  const recordings = calls.filter((c) => c.has_recording).length;
  const columns: Column<FoundCall>[] = [
    { header: t("subject.when"), cell: (c) => dates.moment(c.started_at), sx: { whiteSpace: "nowrap" } },
    { header: t("subject.direction"), cell: (c) => t(`subject.directions.${c.direction}`, c.direction) },
    { header: t("subject.numbers"), dir: "ltr", cell: (c) => `${c.from_number ?? "—"} → ${c.to_number ?? "—"}` },
    { header: t("subject.assistant"), dir: "auto", cell: (c) => c.agent_name },
    {
      header: t("subject.recording"),
      cell: (c) => (c.has_recording ? <MicIcon fontSize="small" titleAccess={t("subject.hasRecording")} /> : "—"),
    },
  ];
  return (
    <>
      <Typography variant="body2" role="status" sx={{ mb: 1 }}>
        {[
          t("subject.found.calls", { count: calls.length }),
          t("subject.found.recordings", { count: recordings }),
          t("subject.found.contacts", { count: campaign_contacts.length }),
          t("subject.found.doNotCall", { count: do_not_call.length }),
        ].join(" · ")}
      </Typography>
      {calls.length > 0 && (
        <Box role="region" aria-label={t("subject.callsLabel")} tabIndex={0} sx={{ overflowX: "auto" }}>
          <DataTable
            label={t("subject.callsLabel")}
            rows={calls.slice(0, SHOWN)}
            columns={columns}
            size="small"
            container="none"
          />
        </Box>
      )}
      {calls.length > SHOWN && (
        <Typography variant="caption" color="text.secondary">
          {t("subject.more", { count: calls.length - SHOWN })}
        </Typography>
      )}
    </>
  );
}
