import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import type { WorkflowVariable } from "@parley/contract";

/**
 * A variable's name: one of the declared variables, or a new name typed in (the validator then
 * asks for it to be declared, and the issues list offers to declare it).
 */
export function VariableField(props: {
  label: string;
  value: string;
  variables: readonly WorkflowVariable[];
  onChange: (name: string) => void;
  helperText?: string;
  required?: boolean;
}) {
  return (
    <Autocomplete
      freeSolo
      size="small"
      options={props.variables.map((v) => v.name)}
      inputValue={props.value}
      onInputChange={(_, value) => props.onChange(value.trim())}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          required={props.required}
          helperText={props.helperText}
          slotProps={{ htmlInput: { ...params.inputProps, dir: "ltr", spellCheck: false } }}
        />
      )}
    />
  );
}
