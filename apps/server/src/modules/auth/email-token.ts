import { and, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { hashToken, randomToken } from "../../lib/crypto.ts";
import { hitRateLimit } from "./rate-limit.ts";
import { emailTokens } from "./schema.ts";

export type EmailTokenPurpose = "magic_link" | "password_reset" | "email_change";
export type EmailTokenRow = typeof emailTokens.$inferSelect;

const HOUR = 3600;

/** Limits how often one IP, and one address, can make Parley send an email. */
export async function limitEmailRequests(ctx: AppContext, purpose: EmailTokenPurpose, ip: string, email: string) {
  const now = ctx.now();
  const { emailPerIp, emailPerAddress } = ctx.config.rateLimits;
  await hitRateLimit(ctx.db, { key: `${purpose}:ip:${ip}`, limit: emailPerIp, windowSeconds: HOUR, now });
  await hitRateLimit(ctx.db, { key: `${purpose}:email:${email}`, limit: emailPerAddress, windowSeconds: HOUR, now });
}

/**
 * Creates a one-time token; only its hash is stored, the caller emails the token itself.
 * A password reset or email change link replaces the account's older unused ones of the same
 * purpose, so a link left in an old email (or a mailbox someone else reads) stops working.
 */
export async function issueEmailToken(
  ctx: AppContext,
  input: { purpose: EmailTokenPurpose; email: string; userId: string | null; ttlSeconds: number },
): Promise<string> {
  const token = randomToken();
  const now = ctx.now();
  if (input.userId && input.purpose !== "magic_link") {
    await ctx.db
      .update(emailTokens)
      .set({ usedAt: now })
      .where(
        and(eq(emailTokens.userId, input.userId), eq(emailTokens.purpose, input.purpose), isNull(emailTokens.usedAt)),
      );
  }
  await ctx.db.insert(emailTokens).values({
    purpose: input.purpose,
    email: input.email,
    userId: input.userId,
    tokenHash: hashToken(token),
    expiresAt: new Date(now.getTime() + input.ttlSeconds * 1000),
  });
  return token;
}

/** Who a one-time link is for, and what its email says around it. */
export interface OneTimeLinkEmail {
  to: string;
  subject: string;
  /** The line above the link. */
  intro: string;
  /** The page the link opens and the query parameter that carries the token. */
  page: { path: string; param: string };
  /** Said after "If you did not ask for it, ignore this email" (e.g. "; your password stays as it is"). */
  ignoreNote?: string;
}

/**
 * Issues a one-time token and emails its link, with the line every such email ends with: the
 * link works once and expires. Magic links, password resets and email changes share it.
 */
export async function emailOneTimeLink(
  ctx: AppContext,
  token: { purpose: EmailTokenPurpose; email: string; userId: string | null; ttlSeconds: number },
  email: OneTimeLinkEmail,
): Promise<void> {
  const secret = await issueEmailToken(ctx, token);
  const link = `${ctx.config.publicUrl}${email.page.path}?${email.page.param}=${encodeURIComponent(secret)}`;
  const minutes = Math.round(token.ttlSeconds / 60);
  await ctx.mailer.send({
    to: email.to,
    subject: email.subject,
    text: [
      email.intro,
      link,
      "",
      `The link works once and expires in ${minutes} minutes. If you did not ask for it, ignore this email${email.ignoreNote ?? ""}.`,
    ].join("\n"),
  });
}

/** Makes an account's unused links (of one purpose, or all) stop working. */
export async function expireEmailTokensOf(db: Executor, userId: string, now: Date, purpose?: EmailTokenPurpose) {
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.userId, userId),
        purpose ? eq(emailTokens.purpose, purpose) : undefined,
        isNull(emailTokens.usedAt),
      ),
    );
}

/**
 * Marks a token used and returns it, in one conditional UPDATE so two concurrent uses cannot both
 * succeed. Unknown, expired, used or wrong-purpose tokens give undefined.
 */
export async function consumeEmailToken(
  db: Executor,
  purpose: EmailTokenPurpose,
  token: string,
  now: Date,
): Promise<EmailTokenRow | undefined> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning();
  return row;
}
