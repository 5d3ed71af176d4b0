import type { AuditEvent } from "@parley/contract";

/** A cell starting like a formula (=, +, -, @, tab, CR) is kept as text by spreadsheets. */
function csvCell(value: string | null): string {
  if (value === null) return "";
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const COLUMNS = [
  "created_at",
  "workspace_id",
  "action",
  "actor_user_id",
  "actor_email",
  "actor_api_key_id",
  "target_type",
  "target_id",
  "ip",
] as const;

/** The entries as CSV, one per line, their details as a JSON cell. */
export function auditCsv(events: AuditEvent[]): string {
  const lines = [[...COLUMNS, "details"].join(",")];
  for (const event of events) {
    lines.push([...COLUMNS.map((c) => csvCell(event[c])), csvCell(JSON.stringify(event.details))].join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
