import TextField from "@mui/material/TextField";
import type { TFunction } from "i18next";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { FunctionFormInput, FunctionFormOutput } from "./function-form.ts";
import { checkParameters, type ParametersCheck } from "./parameters-json.ts";

export function parametersMessage(check: ParametersCheck, t: TFunction<"functions">) {
  if (check.ok) return t("parametersValid", { value: Object.keys(check.schema.properties ?? {}).length });
  if (check.reason === "invalidJson") return t("parametersInvalidJson", { detail: check.detail });
  return t(`parametersErrors.${check.reason}`);
}

/** JSON Schema editor for a function's parameters, checked as the user types. */
export function ParametersField(props: { control: Control<FunctionFormInput, unknown, FunctionFormOutput> }) {
  const { t } = useTranslation("functions");
  return (
    <Controller
      control={props.control}
      name="parameters"
      render={({ field }) => {
        const check = checkParameters(field.value);
        return (
          <TextField
            {...field}
            label={t("fields.parameters")}
            multiline
            minRows={6}
            maxRows={18}
            fullWidth
            required
            error={!check.ok}
            helperText={parametersMessage(check, t)}
            slotProps={{
              htmlInput: { spellCheck: false, dir: "ltr", style: { fontFamily: "monospace", fontSize: 13 } },
            }}
          />
        );
      }}
    />
  );
}
