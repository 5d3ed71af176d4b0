import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../config/paths.ts";
import { useAuth } from "../../lib/auth-context.ts";

/**
 * Says, before anyone presses play or call, that a provider key is missing and where it is added
 * (an owner adds it; a member is told to ask one). `id` lets the disabled button point at it.
 */
export function MissingKeyNote(props: { id: string; purpose: "voice" | "call"; providers: readonly string[] }) {
  const { t, i18n } = useTranslation("missing-key");
  const { workspace } = useAuth();
  const names = new Intl.ListFormat(i18n.language, { type: "conjunction" }).format(props.providers);
  return (
    <Alert
      id={props.id}
      severity="info"
      action={
        <Button component={Link} to={paths.integrations} color="inherit" size="small">
          {t("open")}
        </Button>
      }
    >
      {props.purpose === "voice" ? t("voice", { provider: names }) : t("call", { providers: names })}{" "}
      {t(workspace?.role === "owner" ? "owner" : "member")}
    </Alert>
  );
}
