import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { NewPasswordFields } from "../../../components/new-password-fields.tsx";
import { paths } from "../../../config/paths.ts";
import { confirmPasswordReset, requestPasswordReset } from "../api/flows-api.ts";
import { AuthCard } from "../components/auth-card.tsx";

/** Without a token: ask for a reset link. With one (from the email): choose a new password. */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get("token");
  const [value, setValue] = useState("");
  const [confirm, setConfirm] = useState("");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (token && value !== confirm) {
      setResult({ ok: false, text: t("auth.passwordsDiffer") });
      return;
    }
    setBusy(true);
    try {
      const response = token ? await confirmPasswordReset(token, value) : await requestPasswordReset(value);
      setResult({ ok: true, text: response.message });
    } catch (caught) {
      setResult({ ok: false, text: caught instanceof Error ? caught.message : t("auth.resetFailed") });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={token ? t("auth.chooseNewPassword") : t("auth.resetTitle")}
      subtitle={token ? undefined : t("auth.resetSubtitle")}
    >
      <Stack component="form" spacing={2} onSubmit={onSubmit}>
        {result && (
          <Alert severity={result.ok ? "success" : "error"} role={result.ok ? "status" : "alert"}>
            {result.text}
          </Alert>
        )}
        {token ? (
          <NewPasswordFields value={value} confirm={confirm} onChange={setValue} onConfirmChange={setConfirm} />
        ) : (
          <TextField
            label={t("auth.email")}
            type="email"
            autoComplete="email"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            required
            autoFocus
          />
        )}
        <Button type="submit" variant="contained" size="large" disabled={busy || (result?.ok ?? false)}>
          {token ? t("auth.setPassword") : t("auth.sendResetLink")}
        </Button>
        <Button component={Link} to={paths.login}>
          {t("auth.backToLogin")}
        </Button>
      </Stack>
    </AuthCard>
  );
}
