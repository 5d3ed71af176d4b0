import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useAuth } from "../../../lib/auth-context.ts";
import { verifyMagicLink } from "../api/flows-api.ts";
import { TokenExchange } from "../components/token-exchange.tsx";

export default function MagicLinkCallbackPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { signInWithToken } = useAuth();
  const exchange = useCallback(async () => {
    const result = await verifyMagicLink(search.get("token") ?? "");
    await signInWithToken(result.token, result.workspaceId || null);
  }, [search, signInWithToken]);
  return <TokenExchange title={t("auth.signingIn")} exchange={exchange} />;
}
