import TextField from "@mui/material/TextField";
import { useState } from "react";
import { type FieldPath, useController } from "react-hook-form";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import { msOfSeconds, secondsText } from "../utils/reliability-form.ts";
import type { EditorControl } from "./editor-types.ts";

/**
 * A wait the API keeps in milliseconds, typed in seconds ("2.5"). What was typed stays as typed
 * while it means the value the form holds, so a half-typed "2." is not rewritten under the cursor.
 */
export function SecondsField(props: {
  control: EditorControl;
  name: FieldPath<AssistantFormInput>;
  label: string;
  helperText?: string;
  min: number;
  max: number;
}) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const [typed, setTyped] = useState(() => secondsText(field.value));
  const shown = msOfSeconds(typed) === field.value ? typed : secondsText(field.value);
  return (
    <TextField
      type="number"
      fullWidth
      label={props.label}
      name={field.name}
      inputRef={field.ref}
      onBlur={field.onBlur}
      value={shown}
      onChange={(event) => {
        setTyped(event.target.value);
        field.onChange(msOfSeconds(event.target.value));
      }}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message ?? props.helperText}
      slotProps={{ htmlInput: { min: props.min, max: props.max, step: 0.1, inputMode: "decimal" } }}
    />
  );
}
