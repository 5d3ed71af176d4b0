import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { ssoSignup } from "../api/flows-api.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { SignupForm } from "../components/signup-form.tsx";

/** First single sign-on: confirm the name (and pick a username if wanted) to create the account. */
export default function SignupSsoPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [username, setUsername] = useState("");
  const email = search.get("email") ?? "";
  return (
    <AuthCard title={t("auth.ssoSignupTitle")} subtitle={t("auth.ssoSignupSubtitle", { email })}>
      <SignupForm
        initialName={search.get("name") ?? ""}
        extraFields={
          <TextField
            label={t("auth.usernameOptional")}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
            helperText={t("auth.usernameHelp")}
          />
        }
        submit={(name) =>
          ssoSignup({
            signup_token: search.get("signup_token") ?? "",
            name,
            ...(username.trim() ? { username: username.trim() } : {}),
          })
        }
      />
    </AuthCard>
  );
}
