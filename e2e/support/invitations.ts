import { apiCall } from "./api.ts";
import type { RunningServer } from "./server.ts";

export interface Workspace {
  id: string;
  name: string;
}

/**
 * Invites `email` as a member of the administrator's first workspace through the API and returns
 * that workspace with the invitation link emailed to them (read from the test's SMTP server).
 */
export async function inviteToAdminWorkspace(
  server: RunningServer,
  adminToken: string,
  mailbox: { linkTo(address: string, base: string): Promise<string> },
  email: string,
): Promise<{ workspace: Workspace; link: string }> {
  const [workspace] = await apiCall<Workspace[]>(server.url, adminToken, "GET", "/workspaces");
  if (!workspace) throw new Error("the administrator has no workspace");
  await apiCall(server.url, adminToken, "POST", `/workspaces/${workspace.id}/invite`, { email, role: "member" });
  return { workspace, link: await mailbox.linkTo(email, `${server.url}/enterprise-quota`) };
}
