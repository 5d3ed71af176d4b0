import { type SubjectErasure as Erasure, SubjectErasure, type SubjectQuery, SubjectRecords } from "@parley/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useRefresh, useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/**
 * One person's records (issue 34 item 4): find them, download them as a ZIP, erase them. The keys
 * sit under the privacy feature's own (privacy-api.ts), so an erasure reads the audit log again too.
 */
const privacyKey = (workspaceId: string) => [workspaceId, "privacy"] as const;

/** What the workspace holds about the person; nothing is asked until there is a query. */
export const useSubjectRecords = (query: SubjectQuery | null) =>
  useWorkspaceQuery(
    (workspaceId) => [...privacyKey(workspaceId), "subject", query] as const,
    async () =>
      SubjectRecords.parse(
        await api.request("/privacy/subjects", { query: { phone: query?.phone, email: query?.email } }),
      ),
    { enabled: query !== null },
  );

/** The file name the server gave the ZIP, or a plain one. */
function fileNameOf(response: Response): string {
  const disposition = response.headers.get("content-disposition") ?? "";
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? "subject-export.zip";
}

/** The person's ZIP, saved with the session's token (the number goes in the body, not the URL). */
export async function downloadSubjectZip(query: SubjectQuery): Promise<void> {
  const response = await api.send("/privacy/subjects/export", { method: "POST", body: query });
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = fileNameOf(response);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the file over; the object URL may go once the browser has read it.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

export function useEraseSubject() {
  const refresh = useRefresh(privacyKey);
  return useMutation({
    mutationFn: async (query: SubjectQuery): Promise<Erasure> =>
      SubjectErasure.parse(
        await api.request("/privacy/subjects/erase", { method: "POST", body: { ...query, confirm: true } }),
      ),
    onSuccess: () => refresh(),
  });
}
