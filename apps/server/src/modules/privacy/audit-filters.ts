import type { AuditEventQuery } from "@parley/contract";
import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import { auditEvents } from "../../lib/audit-events-table.ts";

/** Newest first; ties (one request writing twice) broken by id so pages neither repeat nor skip. */
export const byNewest = [desc(auditEvents.createdAt), desc(auditEvents.id)];

/** The action and time filters of a listing. */
export function auditFilters(query: Pick<AuditEventQuery, "action" | "from" | "to">): SQL | undefined {
  return and(
    query.action ? eq(auditEvents.action, query.action) : undefined,
    query.from ? gte(auditEvents.createdAt, new Date(query.from)) : undefined,
    query.to ? lt(auditEvents.createdAt, new Date(query.to)) : undefined,
  );
}
