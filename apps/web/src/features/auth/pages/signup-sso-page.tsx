import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ssoSignup } from "../api/flows-api.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { LinkGate } from "../components/link-gate.tsx";
import { SignupForm } from "../components/signup-form.tsx";

function SsoSignupForm({ ticket, name }: { ticket: string; name: string }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState("");
  return (
    <SignupForm
      initialName={name}
      extraFields={
        <TextField
          label={t("auth.usernameOptional")}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="username"
          helperText={t("auth.usernameHelp")}
        />
      }
      submit={(chosen) =>
        ssoSignup({ signup_token: ticket, name: chosen, ...(username.trim() ? { username: username.trim() } : {}) })
      }
    />
  );
}

/**
 * First single sign-on: confirm the name (and pick a username if wanted) to create the account. The
 * ticket is checked as the page opens; the address shown is the one the server holds for it.
 */
export default function SignupSsoPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const ticket = search.get("signup_token") ?? "";
  return (
    <AuthCard title={t("auth.ssoSignupTitle")}>
      <LinkGate kind="sso_signup" token={ticket}>
        {(link) => (
          <>
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {t("auth.ssoSignupSubtitle", { email: link.email })}
            </Typography>
            <SsoSignupForm ticket={ticket} name={link.name ?? search.get("name") ?? ""} />
          </>
        )}
      </LinkGate>
    </AuthCard>
  );
}
