import type { MagicLinkSignInResult, SignupCompletionResult, SsoSignupBody } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";

export const verifyMagicLink = (token: string) =>
  api.request<MagicLinkSignInResult>("/auth/magic-link/verify", { method: "POST", body: { token }, credentials: true });

export const completeMagicLinkSignup = (token: string, name?: string) =>
  api.request<SignupCompletionResult>("/auth/magic-link/complete-signup", {
    method: "POST",
    body: name ? { token, name } : { token },
    credentials: true,
  });

export const ssoSignup = (body: SsoSignupBody) =>
  api.request<SignupCompletionResult>("/sso/signup", { method: "POST", body, credentials: true });

export const requestPasswordReset = (email: string) =>
  api.request<{ message: string }>("/auth/password-reset/request", { method: "POST", body: { email } });

export const confirmPasswordReset = (token: string, newPassword: string) =>
  api.request<{ message: string }>("/auth/password-reset/confirm", {
    method: "POST",
    body: { token, new_password: newPassword },
  });
