import { and, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { hashToken } from "../../lib/crypto.ts";
import { emailTokens, ssoStates } from "./schema.ts";

export const LinkStatusBody = z.object({
  kind: z.enum(["magic_link", "password_reset", "email_change", "sso_signup"]),
  token: z.string().max(500),
});
export type LinkStatusBody = z.infer<typeof LinkStatusBody>;

export const LinkStatus = z.object({
  status: z.enum(["valid", "used", "expired", "invalid"]),
  /** The address the link is for, once the link is known to be valid. */
  email: z.string().optional(),
  /** The name the provider gave, for a single sign-on sign-up. */
  name: z.string().optional(),
});
export type LinkStatus = z.infer<typeof LinkStatus>;

/**
 * What a page opened from an emailed link (or the single sign-on sign-up ticket) should say before
 * the user types anything: whether the link can still be used, or why not. Nothing is consumed.
 */
export async function linkStatus(ctx: AppContext, body: LinkStatusBody): Promise<LinkStatus> {
  const now = ctx.now();
  const hash = hashToken(body.token);
  if (body.kind === "sso_signup") {
    // A ticket is deleted when used, so a used one reads as invalid.
    const [ticket] = await ctx.db
      .select()
      .from(ssoStates)
      .where(and(eq(ssoStates.id, body.token), isNotNull(ssoStates.subject)));
    if (!ticket?.email) return { status: "invalid" };
    if (ticket.expiresAt <= now) return { status: "expired" };
    return { status: "valid", email: ticket.email, ...(ticket.name ? { name: ticket.name } : {}) };
  }
  const [row] = await ctx.db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hash), eq(emailTokens.purpose, body.kind)));
  if (!row) return { status: "invalid" };
  if (row.usedAt) return { status: "used" };
  if (row.expiresAt <= now) return { status: "expired" };
  return { status: "valid", email: row.email };
}
