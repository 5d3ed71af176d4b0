import Autocomplete from "@mui/material/Autocomplete";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";

/**
 * A list of short texts edited as chips: type and press Enter (or leave the field) to add, remove
 * with a chip's delete icon, or focus a chip and press Backspace. Repeats and blank entries are dropped.
 */
export function ChipsInput(props: {
  label: string;
  value: readonly string[];
  onChange: (value: string[]) => void;
  helperText?: string;
  error?: boolean;
  placeholder?: string;
}) {
  const add = (values: readonly string[]) => {
    const seen = new Set<string>();
    const next: string[] = [];
    for (const raw of values) {
      const text = raw.trim();
      if (text && !seen.has(text)) {
        seen.add(text);
        next.push(text);
      }
    }
    props.onChange(next);
  };
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      autoSelect
      options={[]}
      value={[...props.value]}
      onChange={(_, next) => add(next)}
      renderValue={(value, getItemProps) =>
        value.map((chip, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} label={chip} size="small" {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          helperText={props.helperText}
          error={props.error}
          placeholder={props.placeholder}
        />
      )}
    />
  );
}
