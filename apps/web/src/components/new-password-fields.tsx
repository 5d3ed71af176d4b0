import TextField from "@mui/material/TextField";
import { PASSWORD_MIN_LENGTH } from "@parley/contract";
import { useTranslation } from "react-i18next";

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
      <TextField
        label={t("auth.newPassword")}
        type="password"
        autoComplete="new-password"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        required
        helperText={t("auth.passwordRule", { count: PASSWORD_MIN_LENGTH })}
      />
      <TextField
        label={t("auth.confirmPassword")}
        type="password"
        autoComplete="new-password"
        value={props.confirm}
        onChange={(e) => props.onConfirmChange(e.target.value)}
        required
      />
    </>
  );
}
