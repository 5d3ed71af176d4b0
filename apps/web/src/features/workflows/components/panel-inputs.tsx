import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import type { SxProps, Theme } from "@mui/material/styles";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { menuItems } from "../../../components/menu-options.tsx";

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
      {menuItems(props.options)}
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

/** The panels' two kinds of text button: removing the selection, and adding a row to a list. */
const LINE_BUTTONS = {
  delete: { color: "error", size: "medium", icon: <DeleteOutline /> },
  add: { color: "primary", size: "small", icon: <AddIcon /> },
} as const;

/** A text button on a line of its own below a panel's fields, as wide as its text. */
export function LineButton(props: { kind: keyof typeof LINE_BUTTONS; label: string; onClick: () => void }) {
  const { color, size, icon } = LINE_BUTTONS[props.kind];
  return (
    <div>
      <Button color={color} size={size} startIcon={icon} onClick={props.onClick}>
        {props.label}
      </Button>
    </div>
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
