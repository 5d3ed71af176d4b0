import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { SsoProvider } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { SectionCard } from "../../../components/section-card.tsx";
import { useAuthProviders, useLinkedIdentities, useStartSsoLink, useUnlinkIdentity } from "../api/profile-api.ts";

const providers: SsoProvider[] = ["google", "microsoft"];

/**
 * The single sign-on identities linked to the account, and buttons to link a configured provider.
 * Linking goes to the provider and comes back here with `?linked=` or `?link_error=`.
 */
export function SignInMethodsCard() {
  const { t } = useTranslation(["profile", "translation"], { nsMode: "fallback" });
  const [search, setSearch] = useSearchParams();
  const identities = useLinkedIdentities();
  const configured = useAuthProviders();
  const startLink = useStartSsoLink();
  const unlink = useUnlinkIdentity();
  const linked = search.get("linked");
  const linkError = search.get("link_error");
  const dismiss = () =>
    setSearch(
      (params) => {
        params.delete("linked");
        params.delete("link_error");
        return params;
      },
      { replace: true },
    );
  const label = (provider: string) => t(`profile.providers.${provider}`);
  const offered = providers.filter((p) => configured.data?.[p]);
  // Nothing to show or do on an install without single sign-on (unless returning from a link attempt).
  if (offered.length === 0 && !identities.data?.length && !linked && !linkError) return null;
  return (
    <SectionCard title={t("signInMethods")} gap={1}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t("linkHelp")}
      </Typography>
      <Stack spacing={2}>
        {linked && (
          <Alert severity="success" role="status" onClose={dismiss}>
            {t("linkedNotice", { provider: label(linked) })}
          </Alert>
        )}
        {linkError && (
          <Alert severity="error" role="alert" onClose={dismiss}>
            {linkError}
          </Alert>
        )}
        {startLink.isError && (
          <Alert severity="error" role="alert">
            {errorText(startLink.error, t("linkFailed"))}
          </Alert>
        )}
        {identities.data?.length === 0 && <Typography>{t("notLinked")}</Typography>}
        {identities.data?.map((identity) => (
          <Stack
            key={`${identity.provider}-${identity.email}`}
            direction="row"
            spacing={2}
            sx={{ alignItems: "center", justifyContent: "space-between" }}
          >
            <Typography>
              {t("linkedIdentity", { provider: label(identity.provider), email: identity.email })}
            </Typography>
            <Button
              color="error"
              disabled={unlink.isPending}
              onClick={() => unlink.mutate(identity.provider)}
              aria-label={t("unlinkProvider", { provider: label(identity.provider) })}
            >
              {t("unlink")}
            </Button>
          </Stack>
        ))}
        {unlink.isError && (
          <Alert severity="error" role="alert">
            {errorText(unlink.error, t("unlinkFailed"))}
          </Alert>
        )}
        {offered.length > 0 && (
          <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
            {offered.map((provider) => (
              <Button
                key={provider}
                variant="outlined"
                disabled={startLink.isPending}
                onClick={() => startLink.mutate(provider)}
              >
                {t("linkProvider", { provider: label(provider) })}
              </Button>
            ))}
          </Stack>
        )}
      </Stack>
    </SectionCard>
  );
}
