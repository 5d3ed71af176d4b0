import FormControl from "@mui/material/FormControl";
import FormHelperText from "@mui/material/FormHelperText";
import InputLabel from "@mui/material/InputLabel";
import OutlinedInput from "@mui/material/OutlinedInput";
import { type Ref, useId } from "react";

interface Props {
  label: string;
  value: string;
  onChange(value: string): void;
  /** The field's complaint; shown as its helper text and marking it invalid. */
  error?: string;
  name?: string;
  type?: "text" | "email" | "password";
  autoComplete?: string;
  required?: boolean;
  autoFocus?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * An outlined text field made of the parts MUI's TextField composes — the same label, ids, aria
 * wiring and look — without TextField itself, which also brings Select, Menu and Popover (about
 * 20 KB compressed). For the sign-in pages, whose first load every visitor waits for.
 * What people type takes its own direction (dir="auto"), as in FormTextField.
 */
export function PlainTextField({ label, value, onChange, error, inputRef, required, ...input }: Props) {
  const id = useId();
  const helperId = `${id}-helper-text`;
  return (
    <FormControl variant="outlined" error={Boolean(error)} required={required}>
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        {...input}
        id={id}
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        inputRef={inputRef}
        aria-describedby={error ? helperId : undefined}
        slotProps={{ input: { dir: "auto" } }}
      />
      {error && <FormHelperText id={helperId}>{error}</FormHelperText>}
    </FormControl>
  );
}
