import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import type { Country } from "@parley/contract";
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useCountries } from "../../../api/phone-numbers.ts";
import { flagOf } from "../forms/number-rules.ts";

const optionText = (c: Country) => `${c.label} (${c.dialing_prefix})`;

/**
 * The country picker: every country the server knows, named in the interface language, searchable
 * by name, code or dialing prefix. The value is the ISO code ("" for none).
 */
export function CountryField<T extends FieldValues, TOut extends FieldValues>(props: {
  control: Control<T, unknown, TOut>;
  name: FieldPath<T>;
  helperText?: string;
}) {
  const { t, i18n } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const countries = useCountries(i18n.language);
  const options = countries.data ?? [];
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <Autocomplete
          options={options}
          loading={countries.isPending}
          value={options.find((c) => c.code === field.value) ?? null}
          onChange={(_event, country) => field.onChange(country?.code ?? "")}
          onBlur={field.onBlur}
          getOptionLabel={optionText}
          isOptionEqualToValue={(a, b) => a.code === b.code}
          filterOptions={(list, { inputValue }) => {
            const typed = inputValue.trim().toLowerCase();
            return typed
              ? list.filter((c) => `${c.label} ${c.code} ${c.dialing_prefix}`.toLowerCase().includes(typed))
              : list;
          }}
          renderOption={({ key, ...optionProps }, country) => (
            <li key={key} {...optionProps}>
              <span aria-hidden style={{ marginInlineEnd: 8 }}>
                {flagOf(country.code)}
              </span>
              {country.label}
              <span dir="ltr" style={{ marginInlineStart: 8, opacity: 0.7 }}>
                {country.dialing_prefix}
              </span>
            </li>
          )}
          renderInput={(params) => (
            <TextField
              {...params}
              inputRef={field.ref}
              label={t("fields.country")}
              error={Boolean(fieldState.error) || Boolean(countries.error)}
              helperText={fieldState.error?.message ?? (countries.error ? t("countriesFailed") : props.helperText)}
            />
          )}
        />
      )}
    />
  );
}
