import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { BATCH_CSV_MAX_BYTES } from "@parley/contract";
import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { type CsvPreviewResult, previewCsv } from "../forms/csv-preview.ts";

const SHOWN_ROWS = 5;
const SHOWN_PROBLEMS = 5;

/**
 * Pick a contacts CSV: the browser reads it at once and shows the columns it found, the first rows
 * and the rows that will be refused, so a wrong file is caught before saving. The server reads it
 * again on save and has the last word.
 */
export function CsvField(props: { file: File | null; onChange: (file: File | null) => void; disabled?: boolean }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [result, setResult] = useState<CsvPreviewResult | "too-large" | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > BATCH_CSV_MAX_BYTES) {
      setResult("too-large");
      props.onChange(null);
      return;
    }
    const preview = previewCsv(await file.text());
    setResult(preview);
    props.onChange(preview.ok ? file : null);
  };
  const clear = () => {
    setResult(null);
    props.onChange(null);
    if (input.current) input.current.value = "";
  };

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <input
          ref={input}
          id={inputId}
          type="file"
          accept=".csv,text/csv,text/plain"
          hidden
          aria-label={t("csv.choose")}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <Button
          variant="outlined"
          startIcon={<UploadFileOutlined />}
          disabled={props.disabled}
          onClick={() => input.current?.click()}
        >
          {t("csv.choose")}
        </Button>
        {props.file && (
          <>
            <Typography variant="body2" dir="auto">
              {props.file.name}
            </Typography>
            <Button size="small" onClick={clear}>
              {t("csv.remove")}
            </Button>
          </>
        )}
      </Stack>
      <Typography variant="caption" color="text.secondary">
        {t("csv.help", { example: "{{first_name}}" })}
      </Typography>
      {result === "too-large" && <Alert severity="error">{t("csv.tooLarge")}</Alert>}
      {result !== null && result !== "too-large" && !result.ok && (
        <Alert severity="error">
          {result.reason === "empty" ? t("csv.empty") : t("csv.malformed", { line: result.line })}
        </Alert>
      )}
      {result !== null && result !== "too-large" && result.ok && <PreviewTable preview={result.preview} />}
    </Stack>
  );
}

function PreviewTable({ preview }: { preview: Extract<CsvPreviewResult, { ok: true }>["preview"] }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const columns = preview.variableColumns;
  const rows = preview.rows.slice(0, SHOWN_ROWS);
  const valid = preview.total - preview.problems.length;
  return (
    <Stack spacing={1} role="region" aria-label={t("csv.previewLabel")}>
      <Typography variant="body2">
        {t("csv.summary", {
          total: preview.total,
          valid,
          problems: preview.problems.length,
          column: preview.phoneColumn,
        })}
      </Typography>
      {rows.length > 0 && (
        <Table size="small" aria-label={t("csv.previewLabel")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("csv.line")}</TableCell>
              <TableCell>{t("csv.number")}</TableCell>
              {columns.map((c) => (
                <TableCell key={c} dir="auto">
                  {c}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.line}>
                <TableCell>{row.line}</TableCell>
                <TableCell dir="ltr">{row.number}</TableCell>
                {columns.map((c) => (
                  <TableCell key={c} dir="auto">
                    {row.variables[c] ?? ""}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {preview.problems.length > 0 && (
        <Alert severity="warning">
          <Typography variant="body2">{t("csv.problems", { count: preview.problems.length })}</Typography>
          <ul style={{ margin: 0, paddingInlineStart: 20 }}>
            {preview.problems.slice(0, SHOWN_PROBLEMS).map((p) => (
              <li key={p.line}>{t(`csv.${p.reason}`, { line: p.line, value: p.value || "—" })}</li>
            ))}
          </ul>
        </Alert>
      )}
    </Stack>
  );
}
