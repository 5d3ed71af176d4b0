import Alert from "@mui/material/Alert";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { BATCH_CONTACTS_PAGE_SIZE, type BatchCall, BatchContactStatus } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { DataTable } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { menuItems, optionsOf } from "../../../components/menu-options.tsx";
import { paths } from "../../../config/paths.ts";
import { useListUrlState } from "../../../lib/use-list-url-state.ts";
import { useBatchContacts } from "../api/get-batch-contacts.ts";
import { ContactStatusChip } from "./batch-status-chip.tsx";
import { contactsViewOf } from "./contacts-view.ts";

/**
 * Each contact's outcome, 25 a page read from the server (a campaign may hold 50,000): state,
 * attempts, variables, its latest call. The page and the state shown are in the URL.
 */
export function ContactsTable({ batch }: { batch: BatchCall }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const url = useListUrlState();
  const view = contactsViewOf(url.params);
  const contacts = useBatchContacts(batch, view);
  const filter = (
    <TextField
      select
      label={t("detail.contactState")}
      value={view.status ?? ""}
      onChange={(e) => url.update({ status: e.target.value || undefined, page: undefined })}
      size="small"
      sx={{ minWidth: 180, mb: 2 }}
    >
      <MenuItem value="">{t("detail.allContactStates")}</MenuItem>
      {menuItems(optionsOf(BatchContactStatus.options, (s) => t(`contactStatus.${s}`)))}
    </TextField>
  );
  if (batch.progress.total === 0) return <Typography color="text.secondary">{t("detail.noContacts")}</Typography>;
  if (contacts.isPending)
    return (
      <>
        {filter}
        <ListSkeleton label={t("common.loading")} rows={3} height={40} />
      </>
    );
  if (!contacts.data)
    return (
      <>
        {filter}
        <Alert severity="error">{errorText(contacts.error, t("loadFailed"))}</Alert>
      </>
    );
  const page = contacts.data;
  return (
    <>
      {filter}
      {page.total_count === 0 ? (
        <Typography color="text.secondary">{t("detail.noContactsInState")}</Typography>
      ) : (
        <DataTable
          label={t("detail.contacts")}
          size="small"
          rows={page.data}
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
            page.total_count > BATCH_CONTACTS_PAGE_SIZE
              ? { count: page.total_count, page: view.page, pageSize: BATCH_CONTACTS_PAGE_SIZE, onPage: url.setPage }
              : undefined
          }
        />
      )}
    </>
  );
}
