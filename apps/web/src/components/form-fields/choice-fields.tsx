import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Switch from "@mui/material/Switch";
import { useId } from "react";
import { type Control, Controller, type FieldValues } from "react-hook-form";
import type { CheckboxesSpec, RadiosSpec, ToggleSpec } from "./field-spec.ts";

interface Props<T extends FieldValues, TOut extends FieldValues, S> {
  control: Control<T, unknown, TOut>;
  spec: S;
}

/** A switch or a checkbox with its label beside it. */
export function ToggleField<T extends FieldValues, TOut extends FieldValues>({
  control,
  spec,
}: Props<T, TOut, ToggleSpec<T>>) {
  const Toggle = spec.kind === "switch" ? Switch : Checkbox;
  return (
    <Controller
      control={control}
      name={spec.name}
      render={({ field }) => (
        <FormControlLabel
          control={<Toggle checked={field.value === true} onChange={(_event, on) => field.onChange(on)} />}
          label={spec.label}
        />
      )}
    />
  );
}

/** Checkboxes that together choose a list of values (spec: CheckboxesSpec). */
export function CheckboxesField<T extends FieldValues, TOut extends FieldValues>({
  control,
  spec,
}: Props<T, TOut, CheckboxesSpec<T>>) {
  return (
    <Controller
      control={control}
      name={spec.name}
      render={({ field, fieldState }) => {
        const chosen: readonly unknown[] = Array.isArray(field.value) ? field.value : [];
        const boxes = spec.options.map((option) => (
          <FormControlLabel
            key={option.value}
            label={option.label}
            control={
              <Checkbox
                checked={chosen.includes(option.value)}
                onChange={(_event, on) =>
                  field.onChange(on ? [...chosen, option.value] : chosen.filter((value) => value !== option.value))
                }
              />
            }
          />
        ));
        if (!spec.legend) {
          return (
            <>
              <FormGroup row aria-label={spec.label}>
                {boxes}
              </FormGroup>
              {spec.helperText && <FormHelperText>{spec.helperText}</FormHelperText>}
            </>
          );
        }
        return (
          <FormControl component="fieldset" error={fieldState.invalid} required={spec.required}>
            <FormLabel component="legend">{spec.label}</FormLabel>
            <FormGroup>{boxes}</FormGroup>
            {fieldState.invalid && <FormHelperText>{spec.errorText}</FormHelperText>}
          </FormControl>
        );
      }}
    />
  );
}

/** A row of radio buttons named by the label above them. */
export function RadiosField<T extends FieldValues, TOut extends FieldValues>({
  control,
  spec,
}: Props<T, TOut, RadiosSpec<T>>) {
  const labelId = useId();
  return (
    <>
      <FormLabel id={labelId}>{spec.label}</FormLabel>
      <Controller
        control={control}
        name={spec.name}
        render={({ field }) => (
          <RadioGroup row aria-labelledby={labelId} {...field}>
            {spec.options.map((option) => (
              <FormControlLabel
                key={option.value}
                value={option.value}
                control={<Radio />}
                label={option.label}
                disabled={option.disabled}
              />
            ))}
          </RadioGroup>
        )}
      />
    </>
  );
}
