import type { AuditEvent, AuditEventQuery } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import { type AuditEventRow, auditEvents } from "../../lib/audit-events-table.ts";
import { pagedRows, pageWindow } from "../../lib/paging.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { auditFilters, byNewest } from "./audit-filters.ts";

/** One workspace's entries, for its owners. */
export async function listWorkspaceAuditEvents(
  db: Executor,
  tenant: TenantScope,
  query: Pick<AuditEventQuery, "action" | "from" | "to" | "page" | "items_per_page">,
): Promise<{ rows: AuditEventRow[]; total: number }> {
  const where = scoped(auditEvents, tenant).where(auditFilters(query));
  return pagedRows(db, auditEvents, where, byNewest, pageWindow(query));
}

export function toAuditEvent(row: AuditEventRow): AuditEvent {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    action: row.action,
    actor_user_id: row.actorUserId,
    actor_email: row.actorEmail,
    actor_api_key_id: row.actorApiKeyId,
    target_type: row.targetType,
    target_id: row.targetId,
    ip: row.ip,
    details: row.details,
    created_at: row.createdAt.toISOString(),
  };
}
