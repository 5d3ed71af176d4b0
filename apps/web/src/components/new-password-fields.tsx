import TextField from "@mui/material/TextField";
import { PASSWORD_MIN_LENGTH } from "@parley/contract";
import { useTranslation } from "react-i18next";

/** One field of a password being chosen (the browser offers to generate and save it). */
function ChosenPasswordField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  helperText?: string;
}) {
  return (
    <TextField
      label={props.label}
      type="password"
      autoComplete="new-password"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      required
      helperText={props.helperText}
    />
  );
}

/** "New password" and "Confirm" fields, used wherever a password is chosen. */
export function NewPasswordFields(props: {
  value: string;
  confirm: string;
  onChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ChosenPasswordField
        label={t("auth.newPassword")}
        value={props.value}
        onChange={props.onChange}
        helperText={t("auth.passwordRule", { count: PASSWORD_MIN_LENGTH })}
      />
      <ChosenPasswordField label={t("auth.confirmPassword")} value={props.confirm} onChange={props.onConfirmChange} />
    </>
  );
}
