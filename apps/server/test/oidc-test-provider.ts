import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestAccount {
  sub: string;
  email: string;
  name: string;
  /** Defaults to true; null leaves the claim out (as Microsoft's tokens do). */
  email_verified?: boolean | null;
  /** Microsoft's "email domain owner verified" claim, when the test wants it. */
  xms_edov?: boolean;
}

/**
 * A real OpenID Connect provider (the oidc-provider package) on 127.0.0.1 with one confidential
 * client, for driving Parley's SSO flow end to end. Accounts are looked up by login name.
 */
export async function startOidcProvider(options: { redirectUris: string[]; accounts: TestAccount[] }) {
  const accounts = new Map(options.accounts.map((a) => [a.sub, a]));
  const { createServer } = await import("node:http");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: "parley-test",
        client_secret: "parley-test-secret",
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified", "xms_edov"], profile: ["name"] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          ...(account.email_verified === null ? {} : { email_verified: account.email_verified ?? true }),
          ...(account.xms_edov === undefined ? {} : { xms_edov: account.xms_edov }),
          name: account.name,
        }),
      };
    },
  });
  // The provider rejects http issuers in production mode unless told the proxy is trusted.
  provider.proxy = true;
  server.on("request", provider.callback());
  return {
    issuer,
    clientId: "parley-test",
    clientSecret: "parley-test-secret",
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A tiny browser: follows redirects by hand and keeps the provider's cookies. */
export class CookieBrowser {
  private cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const res = await fetch(url, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(init.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (name) this.cookies.set(name.trim(), value.join("="));
    }
    return res;
  }

  /**
   * Walks the provider from the authorization URL, logging in as `login` and consenting, until it
   * redirects to a URL outside the provider (Parley's callback), which is returned.
   */
  async authorize(authorizationUrl: string, login: string): Promise<URL> {
    let url = authorizationUrl;
    const origin = new URL(authorizationUrl).origin;
    for (let hop = 0; hop < 20; hop++) {
      const res = await this.request(url);
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.get("location") ?? "", url);
        if (next.origin !== origin) return next;
        url = next.toString();
        continue;
      }
      const html = await res.text();
      const action = html.match(/<form[^>]*action="([^"]+)"/)?.[1];
      if (!action) throw new Error(`provider page without a form at ${url}: ${html.slice(0, 300)}`);
      const isLogin = html.includes('name="login"');
      const post = await this.request(new URL(action, url).toString(), {
        method: "POST",
        form: isLogin ? { prompt: "login", login, password: "any" } : { prompt: "consent" },
      });
      const next = new URL(post.headers.get("location") ?? "", url);
      if (next.origin !== origin) return next;
      url = next.toString();
    }
    throw new Error("too many redirects at the provider");
  }
}
