import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";

export interface KeyValueRow {
  key: string;
  value: string;
}

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
 * HTTP header rows bound to a react-hook-form field. The caller's feature namespace supplies the
 * texts under the keys fields.headers, headerName, headerValue, addHeader and removeHeader.
 */
export function HeaderRowsField<T extends FieldValues>(props: {
  control: Control<T>;
  name: FieldPath<T>;
  t: (key: string, options?: Record<string, unknown>) => string;
}) {
  const { t } = props;
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field }) => (
        <KeyValueRows
          rows={field.value}
          onChange={field.onChange}
          labels={{
            title: t("fields.headers"),
            key: t("headerName"),
            value: t("headerValue"),
            add: t("addHeader"),
            remove: (n) => t("removeHeader", { n }),
          }}
        />
      )}
    />
  );
}
