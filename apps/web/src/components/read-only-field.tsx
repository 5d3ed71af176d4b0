import TextField from "@mui/material/TextField";
import type { ReactNode } from "react";

/**
 * A value to copy (a secret, an address, an id): read-only, selected whole when focused, read left
 * to right. `secret` marks it for the tests and tools that check secrets are not shown elsewhere.
 */
export function ReadOnlyField(props: {
  label: string;
  value: string;
  secret?: boolean;
  multiline?: boolean;
  /** A button at the field's end (copy). */
  end?: ReactNode;
}) {
  return (
    <TextField
      label={props.label}
      value={props.value}
      fullWidth
      multiline={props.multiline}
      slotProps={{
        htmlInput: { readOnly: true, dir: "ltr", spellCheck: false, "data-secret": props.secret || undefined },
        input: props.end ? { endAdornment: props.end } : undefined,
      }}
      onFocus={(event) => event.target.select()}
    />
  );
}
