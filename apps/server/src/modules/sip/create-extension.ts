import { randomBytes } from "node:crypto";
import { type CreateExtensionBody, type CreateExtensionResult, PHONE_NUMBER_TEXTS } from "@parley/contract";
import { digestHa1 } from "@parley/sip";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";
import { assistantNames, findExtension, insertPhoneNumber, toPhoneNumber } from "../phone-numbers/service.ts";
import { sipRuntimeOf } from "./sip-runtime.ts";

/** 18 random bytes: a 24-character password no one has to type more than once into a phone. */
const newPassword = () => randomBytes(18).toString("base64url");

/**
 * POST /phone-numbers/extensions: a number whose "number" is the extension, with SIP credentials
 * a desk phone or softphone registers with. Only the digest HA1 is stored; the password is shown
 * in this response and never again. 409 when the extension is taken in its domain (any workspace).
 */
export async function createExtension(
  ctx: AppContext,
  tenant: TenantScope,
  body: CreateExtensionBody,
): Promise<CreateExtensionResult> {
  if (body.agent_id) await requireAgent(ctx.db, tenant, body.agent_id);
  // Checked first so that a second create in the same workspace names the extension, not the number
  // (the unique index still decides a race, with the duplicate-number text at worst).
  if (await findExtension(ctx.db, body.ext, body.domain)) {
    throw new AppError("conflict", PHONE_NUMBER_TEXTS.extensionExists(body.ext));
  }
  const password = newPassword();
  const username = body.ext;
  const record = await insertPhoneNumber(ctx.db, tenant, {
    number: body.ext,
    friendlyName: body.friendly_name,
    country: null,
    provider: "extension",
    agentId: body.agent_id,
    extension: body.ext,
    extensionDomain: body.domain,
    sipUsername: username,
    sipHa1: digestHa1(username, body.domain, password),
  });
  const port = sipRuntimeOf(ctx)?.port ?? ctx.config.sip.port ?? 5060;
  return {
    phone_number: toPhoneNumber(record, await assistantNames(ctx.db, tenant)),
    sip: {
      username,
      password,
      domain: body.domain,
      registrar: ctx.config.sip.registrar ?? `${ctx.config.sip.host}:${port}`,
      transport: ["udp", "tcp"],
    },
  };
}
