import { eq } from "drizzle-orm";
import { workspaceMembers } from "../../src/modules/workspaces/schema.ts";
import { login, seedUser, type TestApp } from "../harness.ts";

/**
 * A new user who belongs to `workspaceId` as a plain member and to no workspace of their own (so
 * that workspace is the one they sign in to), signed in: who a role check is about.
 */
export async function signedInMember(t: TestApp, workspaceId: string) {
  const member = await seedUser(t);
  await t.ctx.db.insert(workspaceMembers).values({ workspaceId, userId: member.user.id, role: "member" });
  await t.ctx.db.delete(workspaceMembers).where(eq(workspaceMembers.workspaceId, member.workspaceId));
  const { token } = await login(t, member.user.username, member.password);
  return { ...member, token };
}
