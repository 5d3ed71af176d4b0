import { SipTrunkSettings, type UpdatePhoneNumberBody } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { validationFailed } from "../../lib/field-errors.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAssistants, requireInboundTarget } from "./assistant-links.ts";
import type { PhoneNumberRecord } from "./schema.ts";
import { type PhoneNumberChanges, requirePhoneNumber, updatePhoneNumber } from "./service.ts";
import { movesSipServer, TRUNK_PASSWORD_AGAIN } from "./trunk-server.ts";

/**
 * A trunk's settings after a partial change: given fields over the stored ones; the password is
 * replaced only when a new one is typed (the form never sees the stored one). A stored password
 * only goes to the server it was saved with: moving the trunk to another server needs it typed again.
 */
function trunkChanges(
  ctx: AppContext,
  record: PhoneNumberRecord,
  given: NonNullable<UpdatePhoneNumberBody["sip_trunk"]>,
): PhoneNumberChanges {
  if (record.provider !== "sip_trunk" || !record.sipTrunk) {
    throw validationFailed([{ path: ["sip_trunk"], message: "Only a SIP trunk number has SIP trunk settings." }]);
  }
  const { password, ...rest } = given;
  if (record.sipPassword && !password && movesSipServer(record.sipTrunk.sip_host, rest.sip_host)) {
    throw new AppError("validation", TRUNK_PASSWORD_AGAIN, {}, [
      { field: "sip_trunk.password", message: TRUNK_PASSWORD_AGAIN },
    ]);
  }
  const merged = SipTrunkSettings.omit({ password: true }).safeParse({ ...record.sipTrunk, ...rest });
  if (!merged.success)
    throw validationFailed(merged.error.issues.map((i) => ({ ...i, path: ["sip_trunk", ...i.path] })));
  return { sipTrunk: merged.data, ...(password ? { sipPassword: ctx.secrets.encrypt(password) } : {}) };
}

/** PATCH /phone-numbers/{id}: rename, (un)assign the inbound and outbound assistants, change trunk settings. */
export async function changePhoneNumber(
  ctx: AppContext,
  tenant: TenantScope,
  id: string,
  body: UpdatePhoneNumberBody,
): Promise<PhoneNumberRecord> {
  const record = await requirePhoneNumber(ctx.db, tenant, id);
  await requireAssistants(ctx.db, tenant, [body.agent_id, body.outbound_agent_id]);
  await requireInboundTarget(ctx.db, tenant, body);
  const changes: PhoneNumberChanges = {
    ...(body.friendly_name !== undefined ? { friendlyName: body.friendly_name } : {}),
    ...(body.agent_id !== undefined ? { agentId: body.agent_id } : {}),
    ...(body.squad_id !== undefined ? { squadId: body.squad_id } : {}),
    // One answers inbound calls: choosing a squad unassigns the assistant, and the other way round.
    ...(body.squad_id ? { agentId: null } : {}),
    ...(body.agent_id ? { squadId: null } : {}),
    ...(body.outbound_agent_id !== undefined ? { outboundAgentId: body.outbound_agent_id } : {}),
    ...(body.sip_trunk ? trunkChanges(ctx, record, body.sip_trunk) : {}),
  };
  return updatePhoneNumber(ctx.db, record, changes, ctx.now());
}
