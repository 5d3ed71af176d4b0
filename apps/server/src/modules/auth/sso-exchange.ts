import { ERROR_TEXTS, type SsoProvider } from "@parley/contract";
import { and, eq, gt } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { oidc, oidcConfiguration, providerSettings } from "./oidc.ts";
import { ssoStates } from "./schema.ts";

export function settingsOf(ctx: AppContext, provider: SsoProvider) {
  const settings = providerSettings(ctx.config, provider);
  if (!settings) throw new AppError("not_found", ERROR_TEXTS.ssoNotConfigured);
  return settings;
}

/** Who the provider says signed in, and whether it vouches that they receive mail at `email`. */
export interface ProviderIdentity {
  subject: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * Whether the provider asserts the person controls the email. Google says so with
 * `email_verified`. Microsoft never sends `email_verified` and lets a tenant put any address in
 * `email`; only its optional `xms_edov` claim (the address's domain is verified by the tenant that
 * owns it) vouches for it, so without that claim a Microsoft email is never trusted.
 */
function vouchesForEmail(provider: SsoProvider, claims: Record<string, unknown>): boolean {
  if (provider === "microsoft") return claims.xms_edov === true || claims.xms_edov === "1" || claims.xms_edov === 1;
  return claims.email_verified === true;
}

/** Consumes the flow's state and exchanges the code (PKCE, state and nonce checked) for the identity. */
export async function exchangeCode(ctx: AppContext, provider: SsoProvider, callbackUrl: URL) {
  const state = callbackUrl.searchParams.get("state") ?? "";
  const [row] = await ctx.db
    .delete(ssoStates)
    .where(and(eq(ssoStates.id, state), eq(ssoStates.provider, provider), gt(ssoStates.expiresAt, ctx.now())))
    .returning();
  if (!row) throw new AppError("bad_request", "This sign-in attempt has expired. Please try again.");
  const config = await oidcConfiguration(settingsOf(ctx, provider));
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: row.codeVerifier,
    expectedState: row.id,
    expectedNonce: row.nonce,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new AppError("bad_request", ERROR_TEXTS.ssoFailed);
  // Providers may keep profile claims out of the ID token and serve them at the userinfo endpoint.
  const claims: Record<string, unknown> =
    typeof idClaims.email === "string"
      ? idClaims
      : { ...idClaims, ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub)) };
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : undefined;
  if (!email) throw new AppError("bad_request", "Your account at the provider has no email address.");
  if (claims.email_verified === false)
    throw new AppError("bad_request", "Your email address is not verified at the provider.");
  const name =
    typeof claims.name === "string" && claims.name.trim() ? claims.name.trim() : (email.split("@")[0] ?? email);
  const identity: ProviderIdentity = {
    subject: idClaims.sub,
    email,
    name,
    emailVerified: vouchesForEmail(provider, claims),
  };
  return { row, identity };
}
