import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { z } from "zod";

/** The form's value of editable key/value rows. */
export const KeyValueRowList = z.array(z.object({ key: z.string(), value: z.string() }));
export type KeyValueRow = z.infer<typeof KeyValueRowList>[number];

/** Rows of a header map, for editing: empty keys are dropped. */
export const rowsToRecord = (rows: KeyValueRow[]): Record<string, string> =>
  Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]));

export const recordToRows = (record: Record<string, string> | null | undefined): KeyValueRow[] =>
  Object.entries(record ?? {}).map(([key, value]) => ({ key, value }));

export interface KeyValueLabels {
  title: string;
  key: string;
  value: string;
  add: string;
  /** Accessible name of a row's remove button, e.g. "Remove header {{n}}"; receives the row number. */
  remove: (row: number) => string;
}

/**
 * Editable key/value rows (HTTP headers and similar). Controlled: the parent owns the rows, so it
 * works both with react-hook-form's Controller and plain state. Labels come from the caller's feature.
 */
export function KeyValueRows(props: {
  rows: KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  labels: KeyValueLabels;
  valueType?: "text" | "password";
}) {
  const { rows, onChange, labels } = props;
  const update = (index: number, patch: Partial<KeyValueRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <Stack spacing={1} role="group" aria-label={labels.title}>
      <Typography variant="subtitle2" component="p">
        {labels.title}
      </Typography>
      {rows.map((row, index) => (
        // Rows have no identity of their own; the index is stable while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <TextField
            size="small"
            label={`${labels.key} ${index + 1}`}
            value={row.key}
            onChange={(e) => update(index, { key: e.target.value })}
            sx={{ flex: 1 }}
          />
          <TextField
            size="small"
            label={`${labels.value} ${index + 1}`}
            type={props.valueType ?? "text"}
            value={row.value}
            onChange={(e) => update(index, { value: e.target.value })}
            sx={{ flex: 1 }}
          />
          <IconButton
            aria-label={labels.remove(index + 1)}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <DeleteOutline />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button size="small" startIcon={<AddIcon />} onClick={() => onChange([...rows, { key: "", value: "" }])}>
          {labels.add}
        </Button>
      </div>
    </Stack>
  );
}

/**
 * The labels of HTTP header rows, from the caller's feature namespace: the keys fields.headers,
 * headerName, headerValue, addHeader and removeHeader.
 */
export const headerRowLabels = (t: (key: string, options?: Record<string, unknown>) => string): KeyValueLabels => ({
  title: t("fields.headers"),
  key: t("headerName"),
  value: t("headerValue"),
  add: t("addHeader"),
  remove: (n) => t("removeHeader", { n }),
});
