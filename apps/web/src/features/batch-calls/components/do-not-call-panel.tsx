import DeleteOutline from "@mui/icons-material/DeleteOutline";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import type { DoNotCallChangeResponse } from "@parley/contract";
import { useSnackbar } from "notistack";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAddDoNotCall, useDoNotCall, useImportDoNotCallCsv, useRemoveDoNotCall } from "../../../api/batch-calls.ts";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { numbersFromText } from "../forms/batch-call-form.ts";
import { useDebouncedValue } from "../hooks/use-debounced-value.ts";
import { formatWhen } from "./format.ts";

/** The workspace's do-not-call list: every campaign skips these numbers and reports them. */
export function DoNotCallPanel() {
  const { t, i18n } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
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
    enqueueSnackbar(
      t("dnc.added", { added: result.added, refused: result.invalid.length + result.duplicates.length }),
      { variant: result.added > 0 ? "success" : "error" },
    );
  const failure = (error: unknown) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });

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
        onError: failure,
      },
    );
  };
  const upload = (picked: File | undefined) => {
    if (!picked) return;
    importCsv.mutate({ file: picked, reason }, { onSuccess: report, onError: failure });
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
        <TableContainer component={Paper}>
          <Table aria-label={t("tabs.doNotCall")} size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t("csv.number")}</TableCell>
                <TableCell>{t("dnc.reason")}</TableCell>
                <TableCell>{t("dnc.addedAt")}</TableCell>
                <TableCell align="right">{t("common.actions")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {list.data.data.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell dir="ltr">{entry.number}</TableCell>
                  <TableCell dir="auto">{entry.reason || "—"}</TableCell>
                  <TableCell>{formatWhen(entry.created_at, i18n.language)}</TableCell>
                  <TableCell align="right">
                    <Tooltip title={t("dnc.remove", { number: entry.number })}>
                      <IconButton
                        aria-label={t("dnc.remove", { number: entry.number })}
                        onClick={() =>
                          remove.mutate([entry.number], {
                            onSuccess: () => enqueueSnackbar(t("dnc.removed"), { variant: "success" }),
                            onError: failure,
                          })
                        }
                      >
                        <DeleteOutline />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={list.data.total_count}
            page={list.data.page - 1}
            rowsPerPage={list.data.items_per_page}
            rowsPerPageOptions={[list.data.items_per_page]}
            onPageChange={(_e, p) => setPage(p + 1)}
          />
        </TableContainer>
      )}
    </Stack>
  );
}
