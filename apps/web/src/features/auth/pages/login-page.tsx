import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import type { AuthProviders } from "@parley/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from "react-router";
import { PlainTextField } from "../../../components/plain-text-field.tsx";
import { API_BASE_URL } from "../../../config/env.ts";
import { paths } from "../../../config/paths.ts";
import { useAuth } from "../../../lib/auth-context.ts";
import { fetchAuthProviders, requestMagicLink } from "../api/session-api.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { checkLogin, checkMagicLink, type TooLong } from "../login-checks.ts";
import { rememberReturnTo, takeReturnTo } from "../return-to.ts";
import { useCheckedForm } from "../use-checked-form.ts";

/** What another page may hand the sign-in page to show (e.g. after a password reset). */
export interface LoginNotice {
  notice?: string;
}

/** Sign in with a password, a magic link, or Google/Microsoft single sign-on. */
export default function LoginPage() {
  const { t } = useTranslation(["auth", "translation"], { nsMode: "fallback" });
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  // Checked by hand (login-checks.ts) so that neither zod nor react-hook-form is on this first load.
  const tooLong: TooLong = (count) => t("tooLong", { ns: "form-messages", count });
  const passwordForm = useCheckedForm({ username: search.get("email") ?? "", password: "" }, (values) =>
    checkLogin(values, tooLong),
  );
  const magicForm = useCheckedForm({ email: search.get("email") ?? "" }, (values) => checkMagicLink(values, tooLong));
  const [error, setError] = useState<string | null>(search.get("error"));
  const state = location.state as ({ from?: string } & LoginNotice) | null;
  const [notice, setNotice] = useState<string | null>(state?.notice ?? null);
  const [busy, setBusy] = useState(false);
  const [providers, setProviders] = useState<AuthProviders>({ google: false, microsoft: false });
  useEffect(() => {
    // Only configured providers get a button; if the list cannot be read, none are offered. With
    // none configured the page stays as it is (no second render of it while it loads).
    fetchAuthProviders()
      .then((configured) => {
        if (configured.google || configured.microsoft) setProviders(configured);
      })
      .catch(() => undefined);
  }, []);
  const from = state?.from;
  // Kept for the whole tab: single sign-on leaves the app and comes back through its callback page.
  useEffect(() => rememberReturnTo(from), [from]);
  const invited = search.get("invited") !== null || (from ?? "").includes("invitation=");
  const failed = (caught: unknown) => setError(caught instanceof Error ? caught.message : t("auth.signInFailed"));

  const onPassword = passwordForm.onSubmit(async ({ username, password }) => {
    setBusy(true);
    setError(null);
    try {
      await login(username, password);
      navigate(takeReturnTo(), { replace: true });
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  });

  const onMagicLink = magicForm.onSubmit(async ({ email }) => {
    setBusy(true);
    setError(null);
    try {
      setNotice((await requestMagicLink(email)).message);
    } catch (caught) {
      failed(caught);
    } finally {
      setBusy(false);
    }
  });

  const sso = (provider: "google" | "microsoft") => {
    window.location.assign(`${API_BASE_URL}/sso/${provider}/login?redirect_to_frontend=true`);
  };

  return (
    <AuthCard title={t("auth.loginTitle")} subtitle={t("auth.loginSubtitle")}>
      {invited && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("invitationNotice")}
        </Alert>
      )}
      {error && (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {error}
        </Alert>
      )}
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          {notice}
        </Alert>
      )}
      <Stack component="form" spacing={2} onSubmit={onPassword} noValidate>
        <PlainTextField
          {...passwordForm.field("username")}
          label={t("auth.usernameOrEmail")}
          autoComplete="username"
          required
          autoFocus
        />
        <PlainTextField
          {...passwordForm.field("password")}
          label={t("auth.password")}
          type="password"
          autoComplete="current-password"
          required
        />
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {t("auth.signIn")}
        </Button>
        <Link component={RouterLink} to={paths.resetPassword} variant="body2" sx={{ alignSelf: "flex-end" }}>
          {t("auth.forgotPassword")}
        </Link>
      </Stack>
      <Divider sx={{ my: 3 }}>{t("auth.or")}</Divider>
      <Stack component="form" spacing={2} onSubmit={onMagicLink} noValidate>
        <PlainTextField
          {...magicForm.field("email")}
          label={t("auth.magicLinkEmail")}
          type="email"
          autoComplete="email"
          required
        />
        <Button type="submit" variant="outlined" disabled={busy}>
          {t("auth.sendMagicLink")}
        </Button>
      </Stack>
      {(providers.google || providers.microsoft) && (
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ mt: 2 }}>
          {providers.google && (
            <Button fullWidth variant="outlined" color="inherit" onClick={() => sso("google")}>
              {t("auth.google")}
            </Button>
          )}
          {providers.microsoft && (
            <Button fullWidth variant="outlined" color="inherit" onClick={() => sso("microsoft")}>
              {t("auth.microsoft")}
            </Button>
          )}
        </Stack>
      )}
    </AuthCard>
  );
}
