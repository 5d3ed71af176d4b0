import { API_KEY_TEXTS, type ApiKeyScope, ERROR_TEXTS } from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SessionClaims } from "../lib/access-tokens.ts";
import { AppError } from "../lib/app-error.ts";
import { requiredScope } from "../lib/scope-policy.ts";

/** Who is calling, from a verified access token of a user who is still active. */
export interface Principal {
  userId: string;
  username: string;
  isSuperuser: boolean;
  tierId: string | null;
  /** The workspace the token was minted for (spec §6: workspace is taken from the token). */
  workspaceId: string | null;
  /** The sign-in session the access token belongs to (null for API keys): a new token keeps it. */
  sessionId: string | null;
  /** Set when the caller used a workspace API key: it acts as its creator, inside its workspace, within its scopes. */
  apiKey?: { id: string; scopes: ApiKeyScope[] };
}

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 unless a valid bearer token of an active user is present (API keys: 403). */
    authenticate(request: FastifyRequest): Promise<void>;
    /**
     * onRequest hook of workspace routes (plugins/tenant.ts): a user's token, or a workspace API key
     * whose scopes allow this route (403 otherwise).
     */
    authenticateUserOrKey(request: FastifyRequest): Promise<void>;
    /** onRequest hook: 401 without a token, 403 unless the user is a superuser. */
    requireSuperuser(request: FastifyRequest): Promise<void>;
  }
}

/** An account as the checks on every request need it (the users module keeps it fresh). */
export interface AccountState {
  username: string;
  isSuperuser: boolean;
  tierId: string | null;
  isActive: boolean;
  sessionGeneration: number;
  keptSessionId: string | null;
}

/** A workspace API key that matched its secret and has not expired. */
export interface VerifiedKey {
  id: string;
  workspaceId: string;
  scopes: ApiKeyScope[];
  createdBy: string;
}

/**
 * What authentication asks of the modules that own accounts and API keys, handed in by app.ts so
 * this plugin names no module.
 */
export interface AuthenticationChecks {
  /** Whether a bearer token has the shape of a workspace API key rather than an access token. */
  looksLikeApiKey(token: string): boolean;
  verifyApiKey(secret: string, now: Date): Promise<VerifiedKey | null>;
  /** Records a key's last use without holding up the request; `onError` reports a failed write. */
  noteApiKeyUse(keyId: string, ip: string, now: Date, onError: (err: unknown) => void): void;
  accountState(userId: string): Promise<AccountState | undefined>;
}

/**
 * A token minted before the account's last sessions cut (a password change or reset) no longer
 * counts, whenever it was minted; only the session that changed the password stays signed in.
 */
function sessionWasCut(claims: SessionClaims, account: AccountState): boolean {
  if (claims.sessionGeneration === account.sessionGeneration) return false;
  return claims.sessionId === null || claims.sessionId !== account.keptSessionId;
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
}

export function registerAuthentication(app: FastifyInstance, checks: AuthenticationChecks) {
  app.decorateRequest("principal", null);

  const challenge = { "www-authenticate": "Bearer" };

  async function authenticate(request: FastifyRequest) {
    const token = bearer(request);
    if (!token) throw new AppError("unauthorized", ERROR_TEXTS.notAuthenticated, challenge);
    // Account, admin, member and API-key management are for people, never for programs.
    if (checks.looksLikeApiKey(token)) throw new AppError("forbidden", API_KEY_TEXTS.routeNotAllowed);
    await authenticateUser(request, token);
  }

  async function authenticateUser(request: FastifyRequest, token: string) {
    const claims = await app.ctx.accessTokens.verify(token);
    if (!claims) throw new AppError("unauthorized", ERROR_TEXTS.tokenInvalid, challenge);
    // Checked on every request so deactivation and demotion take effect at once, not at token expiry
    // (from memory while fresh: see auth-state.ts for how revocation still holds).
    const user = await checks.accountState(claims.id);
    if (!user?.isActive || sessionWasCut(claims, user)) {
      throw new AppError("unauthorized", ERROR_TEXTS.tokenInvalid, challenge);
    }
    request.principal = {
      userId: claims.id,
      username: user.username,
      isSuperuser: user.isSuperuser,
      tierId: user.tierId,
      workspaceId: claims.workspace_id,
      sessionId: claims.sessionId,
    };
  }

  /** A workspace API key: valid, in scope for this route, and its creator still an active account. */
  async function authenticateKey(request: FastifyRequest, secret: string) {
    const now = app.ctx.now();
    const key = await checks.verifyApiKey(secret, now);
    if (!key) throw new AppError("unauthorized", API_KEY_TEXTS.invalid, challenge);
    const scope = requiredScope(request.method, request.routeOptions.url);
    if (!key.scopes.includes(scope)) throw new AppError("forbidden", API_KEY_TEXTS.scopeMissing(scope));
    const user = await checks.accountState(key.createdBy);
    if (!user?.isActive) throw new AppError("unauthorized", API_KEY_TEXTS.invalid, challenge);
    checks.noteApiKeyUse(key.id, request.ip, now, (err) =>
      request.log.warn({ err }, "could not record an API key's last use"),
    );
    request.principal = {
      userId: key.createdBy,
      username: user.username,
      // A key never carries its creator's operator rights: admin routes refuse keys anyway.
      isSuperuser: false,
      tierId: user.tierId,
      workspaceId: key.workspaceId,
      sessionId: null,
      apiKey: { id: key.id, scopes: key.scopes },
    };
  }

  app.decorate("authenticate", authenticate);
  app.decorate("authenticateUserOrKey", async (request: FastifyRequest) => {
    const token = bearer(request);
    if (token && checks.looksLikeApiKey(token)) await authenticateKey(request, token);
    else await authenticate(request);
  });
  app.decorate("requireSuperuser", async (request: FastifyRequest) => {
    await authenticate(request);
    if (!request.principal?.isSuperuser) throw new AppError("forbidden", ERROR_TEXTS.superuserRequired);
  });
}

/** The caller of a route that ran `app.authenticate`; a missing principal is a wiring bug. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error("principalOf() used on a route without app.authenticate");
  return request.principal;
}
