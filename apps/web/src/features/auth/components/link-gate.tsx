import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../config/paths.ts";
import { type LinkKind, useLinkStatus } from "../api/flows-api.ts";

/** The links of the visitor-only pages (the email change link opens the signed-in profile). */
type VisitorLink = Exclude<LinkKind, "email_change">;

/** What the visitor can do about a link that no longer works, by kind of link. */
const wayForward: Record<VisitorLink, { to: string; label: string }> = {
  password_reset: { to: paths.resetPassword, label: "requestNewResetLink" },
  magic_link: { to: paths.login, label: "requestNewSignInLink" },
  sso_signup: { to: paths.login, label: "signInAgain" },
};

/**
 * Checks the page's link when it opens: a spinner while asking, the reason and the way forward when
 * the link is used, expired or malformed, and the page's content (given the link's address) once valid.
 */
export function LinkGate({
  kind,
  token,
  children,
}: {
  kind: VisitorLink;
  token: string;
  children: (link: { email?: string | undefined; name?: string | undefined }) => ReactNode;
}) {
  const { t } = useTranslation(["auth", "translation"], { nsMode: "fallback" });
  const status = useLinkStatus(kind, token);
  if (!status) {
    return (
      <Stack role="status" aria-label={t("common.loading")} sx={{ alignItems: "center", py: 2 }}>
        <CircularProgress />
      </Stack>
    );
  }
  const state = status.status;
  if (state === "valid") return children({ email: status.email, name: status.name });
  const forward = wayForward[kind];
  return (
    <Stack spacing={2}>
      <Alert severity="error" role="alert">
        {t(`link.${state}`)} {t(`link.forward.${kind}`)}
      </Alert>
      <Button component={Link} to={forward.to} variant="contained" replace>
        {t(`link.${forward.label}`)}
      </Button>
      {forward.to !== paths.login && (
        <Button component={Link} to={paths.login}>
          {t("auth.backToLogin")}
        </Button>
      )}
    </Stack>
  );
}
