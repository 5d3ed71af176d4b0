import type { SsoProvider } from "@parley/contract";
import * as client from "openid-client";
import type { Config, OidcClientConfig } from "../../config.ts";

const discovered = new Map<string, Promise<client.Configuration>>();

function isLocalIssuer(issuer: URL) {
  return issuer.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(issuer.hostname);
}

/**
 * The OpenID Connect client configuration of a provider, discovered once per process.
 * Plain-HTTP issuers are allowed only on loopback (a local test or development provider).
 */
export function oidcConfiguration(settings: OidcClientConfig): Promise<client.Configuration> {
  const key = `${settings.issuer}|${settings.clientId}`;
  let pending = discovered.get(key);
  if (!pending) {
    const issuer = new URL(settings.issuer);
    pending = client.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      undefined,
      isLocalIssuer(issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    // A failed discovery (provider down) is retried on the next sign-in rather than cached.
    pending.catch(() => discovered.delete(key));
    discovered.set(key, pending);
  }
  return pending;
}

export function providerSettings(config: Config, provider: SsoProvider): OidcClientConfig | undefined {
  return config.sso[provider];
}

export function redirectUri(config: Config, provider: SsoProvider) {
  return `${config.publicUrl}/api/v1/sso/${provider}/callback`;
}

export { client as oidc };
