import type { AuditEventQuery } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import type { AuditEventRow } from "../../lib/audit-events-table.ts";
import { auditEvents } from "../../lib/audit-events-table.ts";
import { pagedRows, pageWindow } from "../../lib/paging.ts";
import { auditFilters, byNewest } from "./audit-filters.ts";

/** Every workspace's entries and the installation's own, for superusers. */
export async function listAllAuditEvents(
  db: Executor,
  query: Pick<AuditEventQuery, "action" | "from" | "to" | "page" | "items_per_page">,
): Promise<{ rows: AuditEventRow[]; total: number }> {
  return pagedRows(db, auditEvents, auditFilters(query), byNewest, pageWindow(query));
}
