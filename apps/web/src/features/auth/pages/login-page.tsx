import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type FormEvent, useState } from "react";
import { useLocation, useNavigate, useSearchParams } from "react-router";
import { API_BASE_URL } from "../../../config/env.ts";
import { paths } from "../../../config/paths.ts";
import { requestMagicLink } from "../api/session-api.ts";
import { useAuth } from "../auth-context.ts";

const errorText = (error: unknown) => (error instanceof Error ? error.message : "Failed to sign in");

/** Sign in with a password, a magic link, or Google/Microsoft single sign-on. */
export default function LoginPage() {
  const { login } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const [username, setUsername] = useState(search.get("email") ?? "");
  const [password, setPassword] = useState("");
  const [magicEmail, setMagicEmail] = useState(search.get("email") ?? "");
  const [error, setError] = useState<string | null>(search.get("error"));
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const from = (location.state as { from?: string } | null)?.from ?? paths.home;

  const onPassword = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(username, password);
      navigate(from, { replace: true });
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  const onMagicLink = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setNotice((await requestMagicLink(magicEmail)).message);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  const sso = (provider: "google" | "microsoft") => {
    window.location.assign(`${API_BASE_URL}/sso/${provider}/login?redirect_to_frontend=true`);
  };

  return (
    <Box
      component="main"
      sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 2, bgcolor: "background.default" }}
    >
      <Card sx={{ width: "100%", maxWidth: 420 }} elevation={3}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h4" component="h1" sx={{ fontWeight: 700, color: "primary.main", mb: 1 }}>
            Parley
          </Typography>
          <Typography variant="body1" color="text.secondary" sx={{ mb: 3 }}>
            Sign in to build and test your voice assistants.
          </Typography>
          {search.get("invited") && (
            <Alert severity="info" sx={{ mb: 2 }}>
              Sign in to accept your workspace invitation.
            </Alert>
          )}
          {error && (
            <Alert severity="error" sx={{ mb: 2 }} role="alert">
              {error}
            </Alert>
          )}
          {notice && (
            <Alert severity="success" sx={{ mb: 2 }}>
              {notice}
            </Alert>
          )}
          <Stack component="form" spacing={2} onSubmit={onPassword} aria-label="Sign in with password">
            <TextField
              label="Username or email"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              required
              autoFocus
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              Sign in
            </Button>
          </Stack>
          <Divider sx={{ my: 3 }}>or</Divider>
          <Stack component="form" spacing={2} onSubmit={onMagicLink} aria-label="Email me a sign-in link">
            <TextField
              label="Email for a sign-in link"
              type="email"
              autoComplete="email"
              value={magicEmail}
              onChange={(e) => setMagicEmail(e.target.value)}
              required
            />
            <Button type="submit" variant="outlined" disabled={busy}>
              Email me a sign-in link
            </Button>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
            <Button fullWidth variant="text" onClick={() => sso("google")}>
              Continue with Google
            </Button>
            <Button fullWidth variant="text" onClick={() => sso("microsoft")}>
              Continue with Microsoft
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
