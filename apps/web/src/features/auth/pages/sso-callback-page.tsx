import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useAuth } from "../../../lib/auth-context.ts";
import { TokenExchange } from "../components/token-exchange.tsx";

/** The server hands the token over in the URL fragment, which never reaches a server log. */
export default function SsoCallbackPage() {
  const { t } = useTranslation();
  const { signInWithToken } = useAuth();
  const exchange = useCallback(async () => {
    const params = new URLSearchParams(window.location.hash.slice(1));
    const token = params.get("access_token");
    window.history.replaceState(null, "", window.location.pathname);
    if (!token) throw new Error(t("auth.ssoNoToken"));
    await signInWithToken(token, params.get("workspace_id"));
  }, [signInWithToken, t]);
  return <TokenExchange title={t("auth.signingIn")} exchange={exchange} />;
}
