import { type AuditAction, AuditEventPage, PrivacySettings } from "@parley/contract";
import { keepPreviousData, useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useRefresh, useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** The audit log's filters as the page holds them ("" for none; dates as yyyy-mm-dd, the viewer's days). */
export interface AuditFilters {
  action: AuditAction | "";
  from: string;
  to: string;
}

export const AUDIT_PAGE_SIZE = 25;

/** A day's start in the viewer's zone, as the API's instant; `to` is exclusive, so its next day. */
const instant = (day: string, next = false) => {
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return date.toISOString();
};

const queryOf = (f: AuditFilters, page: number, format: "json" | "csv") => ({
  action: f.action || undefined,
  from: f.from ? instant(f.from) : undefined,
  to: f.to ? instant(f.to, true) : undefined,
  page,
  items_per_page: AUDIT_PAGE_SIZE,
  format,
});

const keys = {
  all: (workspaceId: string) => [workspaceId, "privacy"] as const,
  settings: (workspaceId: string) => [workspaceId, "privacy", "settings"] as const,
};

export const usePrivacySettings = () =>
  useWorkspaceQuery(keys.settings, async () => PrivacySettings.parse(await api.request("/privacy/settings")));

export function useSavePrivacySettings() {
  // The audit log shows the change too.
  const refresh = useRefresh(keys.all);
  return useMutation({
    mutationFn: async (body: PrivacySettings) =>
      PrivacySettings.parse(await api.request("/privacy/settings", { method: "PUT", body })),
    onSuccess: () => refresh(),
  });
}

export const useAuditEvents = (filters: AuditFilters, page: number) =>
  useWorkspaceQuery(
    (workspaceId) => [...keys.all(workspaceId), "audit", filters, page] as const,
    async () => AuditEventPage.parse(await api.request("/audit-events", { query: queryOf(filters, page, "json") })),
    { placeholderData: keepPreviousData },
  );

/** Every entry the filters match, as a CSV file saved with the session's token. */
export async function downloadAuditCsv(filters: AuditFilters): Promise<void> {
  const response = await api.send("/audit-events", { query: queryOf(filters, 1, "csv") });
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = "audit-log.csv";
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; the object URL may go once the browser has read it.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
