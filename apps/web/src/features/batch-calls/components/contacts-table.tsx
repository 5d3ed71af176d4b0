import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { BatchContact } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { DataTable } from "../../../components/data-table.tsx";
import { paths } from "../../../config/paths.ts";
import { ContactStatusChip } from "./batch-status-chip.tsx";

const PAGE = 25;

/** Each contact's outcome, 25 a page (a campaign may hold 50,000): state, attempts, variables, its latest call. */
export function ContactsTable({ contacts }: { contacts: readonly BatchContact[] }) {
  const { t } = useTranslation("batch-calls");
  const [page, setPage] = useState(1);
  if (contacts.length === 0) return <Typography color="text.secondary">{t("detail.noContacts")}</Typography>;
  return (
    <DataTable
      label={t("detail.contacts")}
      size="small"
      rows={contacts.slice((page - 1) * PAGE, page * PAGE)}
      rowKey={(contact) => contact.number}
      columns={[
        { header: t("csv.number"), dir: "ltr", cell: (c) => c.number },
        { header: t("columns.status"), cell: (c) => <ContactStatusChip status={c.status} /> },
        { header: t("detail.attempts"), cell: (c) => c.attempts },
        {
          header: t("detail.variables"),
          dir: "auto",
          cell: (c) =>
            Object.entries(c.variables)
              .map(([k, v]) => `${k}: ${v}`)
              .join(", ") || "—",
        },
        {
          header: t("detail.call"),
          cell: (c) =>
            c.call_id ? (
              <Link component={RouterLink} to={`${paths.callLogs}?call=${c.call_id}`}>
                {t("detail.openCall", { number: c.number })}
              </Link>
            ) : (
              "—"
            ),
        },
      ]}
      pagination={
        contacts.length > PAGE ? { count: contacts.length, page, pageSize: PAGE, onPage: setPage } : undefined
      }
    />
  );
}
