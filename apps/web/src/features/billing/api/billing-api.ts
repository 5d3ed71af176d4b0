import { BillingUsage, PaymentRedirect, PaymentStatus } from "@parley/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** One month of the workspace's usage (the current one without a period). */
export const useBillingUsage = (period: string | undefined) =>
  useWorkspaceQuery(
    (workspaceId) => [workspaceId, "billing", "usage", period ?? "current"],
    async () => BillingUsage.parse(await api.request("/billing/usage", { query: { period } })),
  );

export const usePaymentStatus = () =>
  useWorkspaceQuery(
    (workspaceId) => [workspaceId, "billing", "payments"],
    async () => PaymentStatus.parse(await api.request("/billing/payments")),
  );

export type StatementFormat = "csv" | "pdf";

/** Fetches a month's statement with the session's token and saves it as a file. */
export async function downloadStatement(period: string, format: StatementFormat): Promise<void> {
  const response = await api.send(`/billing/statements/${period}`, { query: { format } });
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = `statement-${period}.${format}`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file to the browser; the object URL can go once it has read it.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Opens the payment provider's checkout (subscribe to the plan's tier) or customer portal. */
export function useOpenPayments() {
  return useMutation({
    mutationFn: async (where: "checkout" | "portal") =>
      PaymentRedirect.parse(await api.request(`/billing/payments/${where}`, { method: "POST" })).url,
    onSuccess: (url) => window.location.assign(url),
  });
}
