import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type SessionUser, UpdateProfileBody } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { initialsOf } from "../../../components/initials.ts";
import { NewPasswordFields } from "../../../components/new-password-fields.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { useChangePassword, useUpdateProfile } from "../api/profile-api.ts";
import { EmailConfirmation } from "../components/email-confirmation.tsx";
import { LimitsCard } from "../components/limits-card.tsx";
import { SignInMethodsCard } from "../components/sign-in-methods-card.tsx";

const ProfileDetails = UpdateProfileBody.required({ name: true, email: true }).pick({ name: true, email: true });

/** A new email only takes effect from the link sent to it, so the form says where that link went. */
function ProfileForm({ user }: { user: SessionUser }) {
  const { t } = useTranslation(["profile", "translation"], { nsMode: "fallback" });
  const updateProfile = useUpdateProfile();
  const notice = useNotice();
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const form = useSchemaForm(ProfileDetails, { name: user.name, email: user.email });
  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await updateProfile.mutateAsync(values);
      const asked = values.email.trim().toLowerCase();
      if (asked !== saved.email.toLowerCase()) {
        setPendingEmail(asked);
        form.reset({ name: saved.name, email: saved.email });
      } else {
        notice.success(t("profile.saved"));
      }
    } catch (error) {
      notice.failureWith(t("profile.saveFailed"))(error);
    }
  });
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
      {pendingEmail && (
        <Alert severity="info" role="status" onClose={() => setPendingEmail(null)}>
          {t("emailPending", { email: pendingEmail })}
        </Alert>
      )}
      <FormTextField control={form.control} name="name" label={t("profile.name")} required />
      <FormTextField control={form.control} name="email" label={t("profile.email")} type="email" required />
      <TextField label={t("profile.username")} value={user.username} disabled />
      <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} sx={{ alignSelf: "flex-start" }}>
        {t("common.save")}
      </Button>
    </Stack>
  );
}

function PasswordForm({ hasPassword }: { hasPassword: boolean }) {
  const { t } = useTranslation(["profile", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const changePassword = useChangePassword();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next !== confirm) {
      notice.error(t("auth.passwordsDiffer"));
      return;
    }
    const body = { ...(hasPassword ? { current_password: current } : {}), new_password: next };
    if (
      await notice.run(changePassword.mutateAsync(body), t("passwordChangedEverywhere"), t("profile.passwordFailed"))
    ) {
      setCurrent("");
      setNext("");
      setConfirm("");
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={submit}>
      {hasPassword && (
        <TextField
          label={t("profile.currentPassword")}
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          required
        />
      )}
      <NewPasswordFields value={next} confirm={confirm} onChange={setNext} onConfirmChange={setConfirm} />
      <Button type="submit" variant="contained" disabled={changePassword.isPending} sx={{ alignSelf: "flex-start" }}>
        {hasPassword ? t("profile.changePassword") : t("profile.setPassword")}
      </Button>
    </Stack>
  );
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  if (!user) return null;
  return (
    <>
      <PageHeader title={t("nav.profile")} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card>
            <CardContent sx={{ textAlign: "center" }}>
              <Avatar sx={{ width: 88, height: 88, mx: "auto", mb: 2, bgcolor: "primary.main", fontSize: 32 }}>
                {initialsOf(user.name)}
              </Avatar>
              <Typography variant="h6" component="p">
                {user.name}
              </Typography>
              <Typography color="text.secondary">{user.email}</Typography>
              <Stack direction="row" spacing={1} sx={{ justifyContent: "center", mt: 2, flexWrap: "wrap" }}>
                {user.is_superuser && <Chip color="primary" label={t("profile.superuser")} />}
                <Chip
                  label={
                    user.sso_provider
                      ? t("profile.ssoWith", { provider: t(`profile.providers.${user.sso_provider}`) })
                      : t("profile.noSso")
                  }
                />
                {user.is_enterprise && <Chip label={t("profile.enterprise")} />}
              </Stack>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 8 }}>
          <Stack spacing={3}>
            <EmailConfirmation />
            <SectionCard title={t("profile.details")}>
              <ProfileForm key={user.id + user.email} user={user} />
            </SectionCard>
            <SectionCard title={t("profile.password")}>
              <PasswordForm hasPassword={user.has_password} />
            </SectionCard>
            <SignInMethodsCard />
            <LimitsCard />
          </Stack>
        </Grid>
      </Grid>
    </>
  );
}
