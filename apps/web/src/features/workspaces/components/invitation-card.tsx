import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { SectionCard } from "../../../components/section-card.tsx";
import { paths } from "../../../config/paths.ts";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useAcceptInvitation, useInvitationPreview } from "../api/workspace-api.ts";
import { signedInWithOtherAddress } from "../invited-address.ts";

/**
 * The page an invitation email links to (`?invitation=…`, after signing in or up if needed): says
 * which workspace and role it offers and who sent it, and joins on request; a used, expired or
 * revoked link says so at once. Only the account using the invited address may join (the server
 * refuses others with 403): signed in with another address, the card says so and offers to sign in
 * with the invited one, coming back here afterwards.
 */
export function InvitationCard({ token }: { token: string }) {
  const { t } = useTranslation(["workspaces", "translation"], { nsMode: "fallback" });
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [, setSearch] = useSearchParams();
  const notice = useNotice();
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation();
  const close = () =>
    setSearch(
      (params) => {
        params.delete("invitation");
        return params;
      },
      { replace: true },
    );
  const join = () =>
    accept.mutate(token, {
      onSuccess: (joined) => {
        notice.success(t("invitation.joined", { workspace: joined.name }));
        close();
      },
    });
  const invite = preview.data;
  const invited = invite?.email;
  const otherAddress = signedInWithOtherAddress(user?.email, invited);
  const signInAsInvited = async () => {
    const back = `${location.pathname}${location.search}`;
    await logout();
    navigate(`${paths.login}?${new URLSearchParams({ email: invited ?? "" })}`, {
      replace: true,
      state: { from: back },
    });
  };
  return (
    <SectionCard title={t("invitation.title")}>
      {preview.isPending && <CircularProgress aria-label={t("common.loading")} />}
      {preview.isError && (
        <Alert severity="error" role="alert">
          {errorText(preview.error, t("invitation.joinFailed"))}
        </Alert>
      )}
      {invite && invite.status !== "valid" && (
        <Alert severity="error" role="alert" onClose={close}>
          {t(`invitation.${invite.status}`)} {t("invitation.askAgain")}
        </Alert>
      )}
      {invite?.status === "valid" && (
        <Stack spacing={2}>
          <Typography>
            {t(invite.inviter_name ? "invitation.text" : "invitation.textNoInviter", {
              inviter: invite.inviter_name,
              workspace: invite.workspace_name,
              role: t(`workspaces.roles.${invite.role ?? "member"}`),
            })}
          </Typography>
          {otherAddress && (
            <Alert severity="warning" role="alert">
              {t("invitation.otherAddress", { invited, current: user?.email })}
            </Alert>
          )}
          {accept.isError && (
            <Alert severity="error" role="alert">
              {errorText(accept.error, t("invitation.joinFailed"))}
            </Alert>
          )}
          <Stack direction="row" spacing={1}>
            {otherAddress ? (
              <Button variant="contained" onClick={signInAsInvited}>
                {t("invitation.signInAs", { invited })}
              </Button>
            ) : (
              <Button variant="contained" onClick={join} disabled={accept.isPending}>
                {t("invitation.join", { workspace: invite.workspace_name })}
              </Button>
            )}
            <Button onClick={close}>{t("invitation.notNow")}</Button>
          </Stack>
        </Stack>
      )}
    </SectionCard>
  );
}
