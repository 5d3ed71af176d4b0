import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { SignupCompletionResult } from "@parley/contract";
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useAuth } from "../../../lib/auth-context.ts";
import { takeReturnTo } from "../return-to.ts";

/** Finishes a sign-up: asks for a display name (and optionally more), then signs the new user in. */
export function SignupForm(props: {
  initialName: string;
  extraFields?: ReactNode;
  submit: (name: string) => Promise<Partial<SignupCompletionResult>>;
}) {
  const { t } = useTranslation();
  const { completeSignup } = useAuth();
  const navigate = useNavigate();
  const [name, setName] = useState(props.initialName);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await completeSignup(await props.submit(name.trim()));
      navigate(takeReturnTo(), { replace: true });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : t("auth.linkFailed"));
      setBusy(false);
    }
  };

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit}>
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <TextField
        label={t("auth.yourName")}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        autoFocus
        autoComplete="name"
      />
      {props.extraFields}
      <Button type="submit" variant="contained" size="large" disabled={busy || !name.trim()}>
        {t("auth.createAccount")}
      </Button>
    </Stack>
  );
}
