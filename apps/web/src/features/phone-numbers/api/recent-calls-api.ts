import { CallLogPage } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";

const RECENT = 10;

/**
 * The latest calls from or to a number. The call logs API has no phone number filter; its search
 * matches the from and to numbers (among transcript words), so the answer is narrowed to calls
 * whose either end is this number.
 */
export function useRecentCalls(number: string) {
  return useWorkspaceQuery(
    (workspaceId) => [workspaceId, "call-logs", "list", { search: number, items_per_page: RECENT }],
    async () => {
      const page = CallLogPage.parse(
        await api.request("/call-logs", { query: { search: number, items_per_page: RECENT } }),
      );
      return page.data.filter((call) => call.from_number === number || call.to_number === number);
    },
    // A call placed from the page shows up without a reload.
    { refetchInterval: 5000 },
  );
}
