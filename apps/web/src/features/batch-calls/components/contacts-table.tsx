import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { BatchContact } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { paths } from "../../../config/paths.ts";
import { ContactStatusChip } from "./batch-status-chip.tsx";

const PAGE = 25;

/** Each contact's outcome, 25 a page (a campaign may hold 50,000): state, attempts, variables, its latest call. */
export function ContactsTable({ contacts }: { contacts: readonly BatchContact[] }) {
  const { t } = useTranslation("batch-calls");
  const [page, setPage] = useState(0);
  if (contacts.length === 0) return <Typography color="text.secondary">{t("detail.noContacts")}</Typography>;
  const shown = contacts.slice(page * PAGE, page * PAGE + PAGE);
  return (
    <TableContainer component={Paper}>
      <Table size="small" aria-label={t("detail.contacts")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("csv.number")}</TableCell>
            <TableCell>{t("columns.status")}</TableCell>
            <TableCell>{t("detail.attempts")}</TableCell>
            <TableCell>{t("detail.variables")}</TableCell>
            <TableCell>{t("detail.call")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map((c) => (
            <TableRow key={c.number}>
              <TableCell dir="ltr">{c.number}</TableCell>
              <TableCell>
                <ContactStatusChip status={c.status} />
              </TableCell>
              <TableCell>{c.attempts}</TableCell>
              <TableCell dir="auto">
                {Object.entries(c.variables)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join(", ") || "—"}
              </TableCell>
              <TableCell>
                {c.call_id ? (
                  <Link component={RouterLink} to={`${paths.callLogs}?call=${c.call_id}`}>
                    {t("detail.openCall", { number: c.number })}
                  </Link>
                ) : (
                  "—"
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {contacts.length > PAGE && (
        <TablePagination
          component="div"
          count={contacts.length}
          page={page}
          rowsPerPage={PAGE}
          rowsPerPageOptions={[PAGE]}
          onPageChange={(_e, p) => setPage(p)}
        />
      )}
    </TableContainer>
  );
}
