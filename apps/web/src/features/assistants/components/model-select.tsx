import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { Controller, type FieldPath } from "react-hook-form";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import type { OptionItem } from "../utils/options.ts";
import type { EditorControl } from "./editor-types.ts";

/**
 * A model (or voice) picker: the provider's options to choose from, and free text for names the
 * list does not know (a fine-tuned model, a local server's model, a voice id pasted from a vendor).
 */
export function OptionPicker(props: {
  control: EditorControl;
  name: FieldPath<AssistantFormInput>;
  label: string;
  options: readonly OptionItem[];
  loading?: boolean;
  helperText?: string;
}) {
  const labelOf = new Map(props.options.map((o) => [o.value, o.label]));
  // Ids such as ElevenLabs voice ids mean nothing to a reader: name the chosen option under the field.
  const nameOf = (value: unknown) => {
    const label = typeof value === "string" ? labelOf.get(value) : undefined;
    return label && label !== value ? label : undefined;
  };
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <Autocomplete<string, false, false, true>
          freeSolo
          options={props.options.map((o) => o.value)}
          loading={props.loading}
          value={typeof field.value === "string" ? field.value : ""}
          inputValue={typeof field.value === "string" ? field.value : ""}
          onInputChange={(_, value, reason) => {
            if (reason !== "reset" || value) field.onChange(value);
          }}
          onChange={(_, value) => field.onChange(value ?? "")}
          filterOptions={(options) => options}
          renderOption={(optionProps, option) => {
            const { key, ...rest } = optionProps;
            const label = labelOf.get(option);
            return (
              <li key={key} {...rest}>
                {label && label !== option ? `${label} (${option})` : option}
              </li>
            );
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={props.label}
              name={field.name}
              inputRef={field.ref}
              onBlur={field.onBlur}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message ?? props.helperText ?? nameOf(field.value)}
            />
          )}
        />
      )}
    />
  );
}
