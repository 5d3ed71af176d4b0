import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button, { type ButtonProps } from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import type { SxProps, Theme } from "@mui/material/styles";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** A text field of a node, as people type it (their direction). */
export function NodeText(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  helperText?: string;
  dir?: "auto" | "ltr";
  required?: boolean;
}) {
  return (
    <TextField
      size="small"
      fullWidth
      label={props.label}
      value={props.value}
      required={props.required}
      onChange={(e) => props.onChange(e.target.value)}
      multiline={props.multiline}
      minRows={props.multiline ? 3 : undefined}
      maxRows={props.multiline ? 12 : undefined}
      helperText={props.helperText}
      slotProps={{ htmlInput: { dir: props.dir ?? "auto" } }}
    />
  );
}

/** A small select of the side panels; `options` are value and shown text. */
export function NodeSelect(props: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  required?: boolean;
  fullWidth?: boolean;
  helperText?: string;
  sx?: SxProps<Theme>;
}) {
  return (
    <TextField
      select
      size="small"
      fullWidth={props.fullWidth}
      required={props.required}
      label={props.label}
      value={props.value}
      helperText={props.helperText}
      onChange={(e) => props.onChange(e.target.value)}
      sx={props.sx}
    >
      {props.options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Options whose shown text is the value itself (names, ids). */
export const plainOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

/** What the validator says about the selected node or edge, in the error colour. */
export function IssueList({ label, issues }: { label: string; issues: readonly string[] }) {
  if (issues.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, ps: 2.5, color: "error.main" }} aria-label={label}>
      {issues.map((issue) => (
        <Typography component="li" variant="body2" key={issue}>
          {issue}
        </Typography>
      ))}
    </Box>
  );
}

/** A button on a line of its own below a panel's fields, as wide as its text. */
function LineButton(props: ButtonProps) {
  return (
    <div>
      <Button {...props} />
    </div>
  );
}

/** The panel's last control: removes the selected node or edge. */
export function DeleteSelectionButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <LineButton color="error" startIcon={<DeleteOutline />} onClick={onClick}>
      {label}
    </LineButton>
  );
}

/** One entry of a list edited in place (a variable, a value to collect): its first line ends with its remove button. */
export function RowCard(props: { head: ReactNode; removeLabel: string; onRemove: () => void; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          {props.head}
          <IconButton aria-label={props.removeLabel} onClick={props.onRemove}>
            <DeleteOutline />
          </IconButton>
        </Stack>
        {props.children}
      </Stack>
    </Paper>
  );
}

/** Adds an entry at the end of a list edited in place. */
export function AddRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <LineButton size="small" startIcon={<AddIcon />} onClick={onClick}>
      {label}
    </LineButton>
  );
}
