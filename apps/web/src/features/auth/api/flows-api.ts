import { MagicLinkSignInResult, MessageResponse, SignupCompletionResult, type SsoSignupBody } from "@parley/contract";
import { useEffect, useState } from "react";
import { z } from "zod";
import { api } from "../../../lib/http-client.ts";

/** Spec §5: a completion missing the token, the user or the workspace is refused by the session, not here. */
const SignupCompletion = SignupCompletionResult.partial();

export const verifyMagicLink = async (token: string) =>
  MagicLinkSignInResult.parse(
    await api.request("/auth/magic-link/verify", { method: "POST", body: { token }, credentials: true }),
  );

export const completeMagicLinkSignup = async (token: string, name?: string) =>
  SignupCompletion.parse(
    await api.request("/auth/magic-link/complete-signup", {
      method: "POST",
      body: name ? { token, name } : { token },
      credentials: true,
    }),
  );

export const ssoSignup = async (body: SsoSignupBody) =>
  SignupCompletion.parse(await api.request("/sso/signup", { method: "POST", body, credentials: true }));

export const requestPasswordReset = async (email: string) =>
  MessageResponse.parse(await api.request("/auth/password-reset/request", { method: "POST", body: { email } }));

export const confirmPasswordReset = async (token: string, newPassword: string) =>
  MessageResponse.parse(
    await api.request("/auth/password-reset/confirm", { method: "POST", body: { token, new_password: newPassword } }),
  );

/** Which emailed link (or single sign-on sign-up ticket) a page was opened with. */
export type LinkKind = "magic_link" | "password_reset" | "email_change" | "sso_signup";

const LinkStatus = z.object({
  status: z.enum(["valid", "used", "expired", "invalid"]),
  email: z.string().optional(),
  name: z.string().optional(),
});
export type LinkStatus = z.infer<typeof LinkStatus>;

/**
 * Whether the page's link can still be used, asked once when the page opens (nothing is consumed),
 * so a used, expired or malformed link is explained before anyone types. No token: invalid at once.
 * (Visitor pages sit outside the signed-in layout's query cache, hence plain state.)
 */
export function useLinkStatus(kind: LinkKind, token: string) {
  const [result, setResult] = useState<LinkStatus | null>(token ? null : { status: "invalid" });
  useEffect(() => {
    if (!token) return;
    let current = true;
    api
      .request("/auth/link-status", { method: "POST", body: { kind, token } })
      .then((body) => current && setResult(LinkStatus.parse(body)))
      // If the check itself fails, let the page try the link: its own answer then says what is wrong.
      .catch(() => current && setResult({ status: "valid" }));
    return () => {
      current = false;
    };
  }, [kind, token]);
  return result;
}
