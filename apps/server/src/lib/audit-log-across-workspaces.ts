import type { AuditAction, AuditDetails } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Executor } from "../db/client.ts";
import { principalOf } from "../plugins/authenticate.ts";
import { auditEvents } from "./audit-events-table.ts";
import { failureFields } from "./log-options.ts";

/** Who acted: a person (their email when they acted), an API key for its creator, or the system. */
export interface AuditActor {
  userId: string | null;
  email: string | null;
  apiKeyId: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { userId: null, email: null, apiKeyId: null };

export interface AuditEntry {
  /** Null: a superuser's action over the whole installation. */
  workspaceId: string | null;
  action: AuditAction;
  actor: AuditActor;
  target?: { type: string; id: string };
  ip?: string | null;
  /** Facts about the action, never a secret. */
  details?: AuditDetails;
  at: Date;
}

/**
 * The one writer of the audit log. It crosses workspaces on purpose: an entry may belong to any
 * workspace, or to none (an installation-wide action), and is written by whichever module acted.
 */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    workspaceId: entry.workspaceId,
    action: entry.action,
    actorUserId: entry.actor.userId,
    actorEmail: entry.actor.email,
    actorApiKeyId: entry.actor.apiKeyId,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id ?? null,
    ip: entry.ip ?? null,
    details: entry.details ?? {},
    createdAt: entry.at,
  });
}

/**
 * The signed-in caller of a request as the audit log names them, with their email as it is now. The
 * address is read by the users table's SQL name: the foundation imports no module.
 */
async function actorOf(request: FastifyRequest): Promise<AuditActor> {
  const principal = principalOf(request);
  // Both drivers answer with `rows`; drizzle's type for a raw statement does not say so.
  const found = (await request.server.ctx.db.execute(
    sql`select email from users where id = ${principal.userId}`,
  )) as unknown as {
    rows: { email: string }[];
  };
  const email = found.rows[0]?.email ?? null;
  return { userId: principal.userId, email, apiKeyId: principal.apiKey?.id ?? null };
}

/**
 * Records what the caller of an authenticated request just did, from where. `workspaceId` null is an
 * installation-wide action (a superuser's). The action has happened by then: a failed write is
 * logged at error with what the entry would have said, and the caller still gets the action's
 * answer (a 500 would tell them it failed, and a retry would do it twice).
 */
export async function auditRequest(
  request: FastifyRequest,
  action: AuditAction,
  entry: { workspaceId: string | null; target?: { type: string; id: string }; details?: AuditDetails },
): Promise<void> {
  const { ctx } = request.server;
  try {
    await recordAudit(ctx.db, { ...entry, action, actor: await actorOf(request), ip: request.ip, at: ctx.now() });
  } catch (error) {
    request.log.error(
      { action, workspaceId: entry.workspaceId, target: entry.target, ...failureFields(error) },
      "could not write the audit log entry for an action that was done",
    );
  }
}
