import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router";
import { NewPasswordFields } from "../../../components/new-password-fields.tsx";
import { paths } from "../../../config/paths.ts";
import { confirmPasswordReset, requestPasswordReset } from "../api/flows-api.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { LinkGate } from "../components/link-gate.tsx";
import type { LoginNotice } from "./login-page.tsx";

type Result = { ok: boolean; text: string } | null;

function ResultAlert({ result }: { result: Result }) {
  if (!result) return null;
  return (
    <Alert severity={result.ok ? "success" : "error"} role={result.ok ? "status" : "alert"}>
      {result.text}
    </Alert>
  );
}

/** Asks for a reset link by email. */
function RequestLinkForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [result, setResult] = useState<Result>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      setResult({ ok: true, text: (await requestPasswordReset(email)).message });
    } catch (caught) {
      setResult({ ok: false, text: caught instanceof Error ? caught.message : t("auth.resetFailed") });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit}>
      <ResultAlert result={result} />
      <TextField
        label={t("auth.email")}
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        autoFocus
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || (result?.ok ?? false)}>
        {t("auth.sendResetLink")}
      </Button>
      <Button component={Link} to={paths.login}>
        {t("auth.backToLogin")}
      </Button>
    </Stack>
  );
}

/** Chooses the new password; once set, the sign-in page opens with the confirmation. */
function NewPasswordForm({ token }: { token: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [value, setValue] = useState("");
  const [confirm, setConfirm] = useState("");
  const [result, setResult] = useState<Result>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (value !== confirm) {
      setResult({ ok: false, text: t("auth.passwordsDiffer") });
      return;
    }
    setBusy(true);
    try {
      const { message } = await confirmPasswordReset(token, value);
      const notice: LoginNotice = { notice: message };
      navigate(paths.login, { replace: true, state: notice });
    } catch (caught) {
      setResult({ ok: false, text: caught instanceof Error ? caught.message : t("auth.resetFailed") });
      setBusy(false);
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit}>
      <ResultAlert result={result} />
      <NewPasswordFields value={value} confirm={confirm} onChange={setValue} onConfirmChange={setConfirm} />
      <Button type="submit" variant="contained" size="large" disabled={busy}>
        {t("auth.setPassword")}
      </Button>
      <Button component={Link} to={paths.login}>
        {t("auth.backToLogin")}
      </Button>
    </Stack>
  );
}

/**
 * Without a token: ask for a reset link. With one (from the email): the link is checked as the page
 * opens, then the new password is chosen.
 */
export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get("token");
  if (token === null) {
    return (
      <AuthCard title={t("auth.resetTitle")} subtitle={t("auth.resetSubtitle")}>
        <RequestLinkForm />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth.chooseNewPassword")}>
      <LinkGate kind="password_reset" token={token}>
        {() => <NewPasswordForm token={token} />}
      </LinkGate>
    </AuthCard>
  );
}
