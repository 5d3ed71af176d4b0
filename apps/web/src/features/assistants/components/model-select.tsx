import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { type FieldPath, useController } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { OptionItem } from "../../../lib/provider-options.ts";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
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
  const { t } = useTranslation("assistants");
  const labelOf = new Map(props.options.map((o) => [o.value, o.label]));
  // Vendor voice ids mean nothing to a reader: name the chosen option under the field.
  // A value the loaded list does not know is kept as typed: say so, so it reads as a choice, not a glitch.
  const noteOf = (value: unknown) => {
    if (typeof value !== "string" || !value) return undefined;
    const label = labelOf.get(value);
    if (label === undefined) return props.options.length > 0 && !props.loading ? t("editor.unlisted") : undefined;
    return label !== value ? label : undefined;
  };
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const text = typeof field.value === "string" ? field.value : "";
  return (
    <Autocomplete<string, false, false, true>
      freeSolo
      options={props.options.map((o) => o.value)}
      loading={props.loading}
      value={text}
      inputValue={text}
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
          helperText={fieldState.error?.message ?? props.helperText ?? noteOf(field.value)}
        />
      )}
    />
  );
}
