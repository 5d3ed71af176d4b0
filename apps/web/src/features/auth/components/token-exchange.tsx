import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { paths } from "../../../config/paths.ts";
import { takeReturnTo } from "../return-to.ts";
import { AuthCard } from "./auth-card.tsx";

/**
 * Runs a one-time exchange (magic link, SSO callback) once on arrival, then goes where the visitor
 * was headed before signing in (else home); on failure
 * shows why with a way back to the login page.
 */
export function TokenExchange({ title, exchange }: { title: string; exchange: () => Promise<void> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Strict mode mounts twice in development; a one-time token must be spent once.
    if (started.current) return;
    started.current = true;
    exchange()
      .then(() => navigate(takeReturnTo(), { replace: true }))
      .catch((caught: unknown) => setError(caught instanceof Error ? caught.message : t("auth.linkFailed")));
  }, [exchange, navigate, t]);
  return (
    <AuthCard title={title}>
      {error ? (
        <Stack spacing={2}>
          <Alert severity="error" role="alert">
            {error}
          </Alert>
          <Button component={Link} to={paths.login} variant="contained">
            {t("auth.backToLogin")}
          </Button>
        </Stack>
      ) : (
        <Stack role="status" aria-label={t("common.loading")} sx={{ alignItems: "center", py: 2 }}>
          <CircularProgress />
        </Stack>
      )}
    </AuthCard>
  );
}
