import { z } from "zod";

/**
 * Workspace API keys (issue 16): a bearer token for programs. The secret is shown once, at
 * creation; the server keeps only its SHA-256. A key acts inside its own workspace with the
 * role of the member who created it, and only on the routes its scopes allow.
 */

/** read: GET/HEAD; write: every other change; calls: starting and ending calls (see docs). */
export const API_KEY_SCOPES = ["read", "write", "calls"] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** Every secret starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_SECRET_PREFIX = "pk_live_";
/** Characters of the random part shown in the visible prefix ("pk_live_ab12cd"). */
export const API_KEY_VISIBLE_CHARS = 6;
/** How many live (not revoked) keys a workspace may hold. */
export const API_KEY_MAX_PER_WORKSPACE = 50;

export const ApiKey = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The first characters of the secret, enough to recognise it: "pk_live_ab12cd". */
  prefix: z.string(),
  scopes: z.array(ApiKeyScope),
  expires_at: z.string().nullable(),
  created_at: z.string(),
  /** Who created it; the key acts with this member's role. */
  created_by: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z.array(ApiKey);
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const CreateApiKeyBody = z.object({
  name: z.string().trim().min(1, "Name is required").max(100, "Name is at most 100 characters"),
  scopes: z
    .array(ApiKeyScope)
    .min(1, "Choose at least one scope")
    .transform((s) => [...new Set(s)]),
  /** An ISO date-time in the future, or null for a key that never expires. */
  expires_at: z.iso.datetime({ offset: true, error: "Expiry must be an ISO date and time" }).nullable().default(null),
});
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBody>;

/** The answer to a creation: the key and, this once, its secret. */
export const CreatedApiKey = ApiKey.extend({ secret: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const API_KEY_TEXTS = {
  notFound: "API key not found.",
  revoked: "API key revoked.",
  expiryInPast: "Expiry must be in the future.",
  tooMany: `A workspace can hold at most ${API_KEY_MAX_PER_WORKSPACE} active API keys.`,
  invalid: "Invalid, expired or revoked API key.",
  routeNotAllowed: "API keys cannot be used for this route. Sign in as a user.",
  scopeMissing: (scope: ApiKeyScope) => `This API key lacks the "${scope}" scope.`,
} as const;
