import { zodResolver } from "@hookform/resolvers/zod";
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
import { useSnackbar } from "notistack";
import { type FormEvent, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { initialsOf } from "../../../components/initials.ts";
import { NewPasswordFields } from "../../../components/new-password-fields.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { api } from "../../../lib/http-client.ts";
import { useAuth } from "../../auth/auth-context.ts";

const ProfileDetails = UpdateProfileBody.required({ name: true, email: true }).pick({ name: true, email: true });

function ProfileForm({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const { restore } = useAuth();
  const { enqueueSnackbar } = useSnackbar();
  const form = useForm<z.input<typeof ProfileDetails>, unknown, z.output<typeof ProfileDetails>>({
    resolver: zodResolver(ProfileDetails),
    defaultValues: { name: user.name, email: user.email },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await api.request("/users/me", { method: "PATCH", body: values });
      await restore();
      enqueueSnackbar(t("profile.saved"), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("profile.saveFailed")), { variant: "error" });
    }
  });
  return (
    <Stack component="form" spacing={2} onSubmit={submit} noValidate>
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
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (next !== confirm) {
      enqueueSnackbar(t("auth.passwordsDiffer"), { variant: "error" });
      return;
    }
    setBusy(true);
    try {
      await api.request("/users/me/password", {
        method: "POST",
        body: { ...(hasPassword ? { current_password: current } : {}), new_password: next },
      });
      enqueueSnackbar(t("profile.passwordChanged"), { variant: "success" });
      setCurrent("");
      setNext("");
      setConfirm("");
    } catch (error) {
      enqueueSnackbar(errorText(error, t("profile.passwordFailed")), { variant: "error" });
    } finally {
      setBusy(false);
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
      <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: "flex-start" }}>
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
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
                  {t("profile.details")}
                </Typography>
                <ProfileForm key={user.id + user.email} user={user} />
              </CardContent>
            </Card>
            <Card>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
                  {t("profile.password")}
                </Typography>
                <PasswordForm hasPassword={user.has_password} />
              </CardContent>
            </Card>
          </Stack>
        </Grid>
      </Grid>
    </>
  );
}
