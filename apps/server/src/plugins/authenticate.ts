import { ERROR_TEXTS } from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.ts";
import { authStateOf } from "../modules/users/auth-state.ts";

/** Who is calling, from a verified access token of a user who is still active. */
export interface Principal {
  userId: string;
  username: string;
  isSuperuser: boolean;
  tierId: string | null;
  /** The workspace the token was minted for (spec §6: workspace is taken from the token). */
  workspaceId: string | null;
}

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 unless a valid bearer token of an active user is present. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** onRequest hook: 401 without a token, 403 unless the user is a superuser. */
    requireSuperuser(request: FastifyRequest): Promise<void>;
  }
}

/**
 * A token issued before the user's sessions cut-off (a password change or reset) no longer counts.
 * Whole seconds, as a token's `iat` is: a token refreshed in the same second as the change stays valid.
 */
function issuedBeforeCutOff(issuedAt: number, validFrom: Date | null): boolean {
  return validFrom !== null && issuedAt < Math.floor(validFrom.getTime() / 1000);
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
}

export function registerAuthentication(app: FastifyInstance) {
  app.decorateRequest("principal", null);

  async function authenticate(request: FastifyRequest) {
    const token = bearer(request);
    if (!token) throw new AppError("unauthorized", ERROR_TEXTS.notAuthenticated, { "www-authenticate": "Bearer" });
    const claims = await app.ctx.accessTokens.verify(token);
    if (!claims) throw new AppError("unauthorized", ERROR_TEXTS.tokenInvalid, { "www-authenticate": "Bearer" });
    // Checked on every request so deactivation and demotion take effect at once, not at token expiry
    // (from memory while fresh: see auth-state.ts for how revocation still holds).
    const user = await authStateOf(app.ctx.db, claims.id);
    if (!user?.isActive || issuedBeforeCutOff(claims.issuedAt, user.sessionsValidFrom)) {
      throw new AppError("unauthorized", ERROR_TEXTS.tokenInvalid, { "www-authenticate": "Bearer" });
    }
    request.principal = {
      userId: claims.id,
      username: user.username,
      isSuperuser: user.isSuperuser,
      tierId: user.tierId,
      workspaceId: claims.workspace_id,
    };
  }

  app.decorate("authenticate", authenticate);
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
