import DeleteOutline from "@mui/icons-material/DeleteOutline";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { DoNotCallChangeResponse } from "@parley/contract";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAddDoNotCall, useDoNotCall, useImportDoNotCallCsv, useRemoveDoNotCall } from "../../../api/batch-calls.ts";
import { DataTable } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { numbersFromText } from "../forms/batch-call-form.ts";
import { formatWhen } from "./format.ts";

/** The workspace's do-not-call list: every campaign skips these numbers and reports them. */
export function DoNotCallPanel() {
  const { t, i18n } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [typed, setTyped] = useState("");
  const [reason, setReason] = useState("");
  const settled = useDebouncedValue(search, 300);
  const list = useDoNotCall(page, settled);
  const add = useAddDoNotCall();
  const remove = useRemoveDoNotCall();
  const importCsv = useImportDoNotCallCsv();
  const file = useRef<HTMLInputElement>(null);

  const report = (result: DoNotCallChangeResponse) =>
    (result.added > 0 ? notice.success : notice.error)(
      t("dnc.added", { added: result.added, refused: result.invalid.length + result.duplicates.length }),
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const numbers = numbersFromText(typed);
    if (numbers.length === 0) return;
    add.mutate(
      { numbers, reason },
      {
        onSuccess: (result) => {
          report(result);
          setTyped("");
        },
        onError: notice.failure,
      },
    );
  };
  const upload = (picked: File | undefined) => {
    if (!picked) return;
    importCsv.mutate({ file: picked, reason }, { onSuccess: report, onError: notice.failure });
    if (file.current) file.current.value = "";
  };

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack component="form" onSubmit={submit} spacing={2} direction={{ xs: "column", md: "row" }}>
          <TextField
            label={t("dnc.numbers")}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            multiline
            maxRows={4}
            sx={{ flex: 2 }}
            helperText={t("dnc.numbersHelp")}
            slotProps={{ htmlInput: { dir: "ltr" } }}
          />
          <TextField
            label={t("dnc.reason")}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            sx={{ flex: 1 }}
          />
          <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
            <Button type="submit" variant="contained" disabled={add.isPending || typed.trim() === ""}>
              {t("dnc.add")}
            </Button>
            <input
              ref={file}
              type="file"
              accept=".csv,text/csv,text/plain"
              hidden
              aria-label={t("dnc.import")}
              onChange={(e) => upload(e.target.files?.[0])}
            />
            <Button
              variant="outlined"
              startIcon={<UploadFileOutlined />}
              disabled={importCsv.isPending}
              onClick={() => file.current?.click()}
            >
              {t("dnc.import")}
            </Button>
          </Stack>
        </Stack>
      </Paper>
      <TextField
        label={t("dnc.search")}
        type="search"
        size="small"
        value={search}
        onChange={(e) => {
          setPage(1);
          setSearch(e.target.value);
        }}
        sx={{ maxWidth: 320 }}
      />
      {list.isPending ? (
        <ListSkeleton label={t("common.loading")} />
      ) : list.error && !list.data ? (
        <Alert severity="error">{errorText(list.error, t("common.failed"))}</Alert>
      ) : !list.data || list.data.total_count === 0 ? (
        <EmptyState title={t("dnc.emptyTitle")} hint={t("dnc.emptyHint")} />
      ) : (
        <DataTable
          label={t("tabs.doNotCall")}
          size="small"
          rows={list.data.data}
          columns={[
            { header: t("csv.number"), dir: "ltr", cell: (entry) => entry.number },
            { header: t("dnc.reason"), dir: "auto", cell: (entry) => entry.reason || "—" },
            { header: t("dnc.addedAt"), cell: (entry) => formatWhen(entry.created_at, i18n.language) },
          ]}
          actions={[
            {
              id: "remove",
              icon: <DeleteOutline />,
              label: (entry) => t("dnc.remove", { number: entry.number }),
              tooltip: (entry) => t("dnc.remove", { number: entry.number }),
              onClick: (entry) =>
                remove.mutate([entry.number], {
                  onSuccess: () => notice.success(t("dnc.removed")),
                  onError: notice.failure,
                }),
            },
          ]}
          pagination={{
            count: list.data.total_count,
            page: list.data.page,
            pageSize: list.data.items_per_page,
            onPage: setPage,
          }}
        />
      )}
    </Stack>
  );
}
