import type { ExtensionStatus, ExtensionStatusBody } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findExtension, findNumberByAnyProvider } from "../phone-numbers/service.ts";
import { currentRegistrations, extensionInCall } from "./registrations.ts";

/**
 * POST /phone-numbers/extensions/status. In order: NOT_FOUND (no such extension in this
 * workspace), RUNNING (a call is up on it, any process), REGED (a phone holds a current
 * registration), ALIASED (nothing registered, but the workspace has a SIP trunk number equal to
 * the extension: calls for it go out over that trunk), else NOREG.
 */
export async function extensionStatus(
  ctx: AppContext,
  tenant: TenantScope,
  body: ExtensionStatusBody,
): Promise<ExtensionStatus> {
  const base = { extension: body.extension, domain: body.domain, contact: null, expires_at: null };
  const record = await findExtension(ctx.db, body.extension, body.domain);
  if (!record || record.workspaceId !== tenant.workspaceId) return { ...base, status: "NOT_FOUND" };
  const username = record.sipUsername ?? body.extension;
  const now = ctx.now();
  const bindings = await currentRegistrations(ctx.db, username, body.domain, now);
  const newest = bindings.at(-1);
  const registration = newest
    ? { contact: newest.contact, expires_at: newest.expiresAt.toISOString() }
    : { contact: null, expires_at: null };
  if (await extensionInCall(ctx.db, username, body.domain, now)) return { ...base, ...registration, status: "RUNNING" };
  if (newest) return { ...base, ...registration, status: "REGED" };
  const sameNumber = await findNumberByAnyProvider(ctx.db, body.extension);
  const trunk = sameNumber.some((n) => n.provider === "sip_trunk" && n.workspaceId === tenant.workspaceId);
  return { ...base, status: trunk ? "ALIASED" : "NOREG" };
}
