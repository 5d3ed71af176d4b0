import Alert from "@mui/material/Alert";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { ApiError } from "../../../lib/api-error.ts";
import { useConfirmEmail } from "../api/profile-api.ts";

/**
 * Opened from the link sent to a new email address (`/profile?email_token=…`): confirms it at once and
 * says whether it worked; a used or expired link says so with the way forward (change it again).
 */
export function EmailConfirmation() {
  const { t } = useTranslation(["profile", "translation"], { nsMode: "fallback" });
  const [search, setSearch] = useSearchParams();
  const token = search.get("email_token");
  const confirm = useConfirmEmail();
  const started = useRef(false);
  useEffect(() => {
    // A single-use token is spent once, also when strict mode mounts twice.
    if (!token || started.current) return;
    started.current = true;
    confirm.mutate(token, {
      onSettled: () =>
        setSearch(
          (params) => {
            params.delete("email_token");
            return params;
          },
          { replace: true },
        ),
    });
  }, [token, confirm, setSearch]);
  if (confirm.isSuccess) {
    return (
      <Alert severity="success" role="status">
        {t("emailConfirmed", { email: confirm.data.email })}
      </Alert>
    );
  }
  if (confirm.isError) {
    // A used, expired or mangled link is a 400: say so in our words, with the way forward.
    const linkGone = confirm.error instanceof ApiError && confirm.error.status === 400;
    return (
      <Alert severity="error" role="alert">
        {linkGone ? t("emailLinkInvalid") : errorText(confirm.error, t("emailConfirmFailed"))}
      </Alert>
    );
  }
  return null;
}
