import {
  type CreatePhoneNumberBody,
  MediaStreamProvider,
  PHONE_NUMBER_TEXTS,
  type SipTrunkSettings,
} from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { validationFailed } from "../../lib/field-errors.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAssistants, requireInboundTarget } from "./assistant-links.ts";
import { normaliseNumber } from "./number-format.ts";
import type { NewPhoneNumber, PhoneNumberRecord } from "./schema.ts";
import { hasPhoneNumber, insertPhoneNumber } from "./service.ts";
import {
  type IntegrationRow,
  integrationAccount,
  isVendorFailure,
  PhoneServiceError,
  telephonyFor,
  vendorFailure,
  vendorIntegration,
} from "./vendor-account.ts";
import { webhookUrlsFor } from "./webhook-urls.ts";

/**
 * Extensions and messaging numbers carry credentials Parley creates or verifies, so each kind has
 * its own endpoint (POST /phone-numbers/extensions, POST /phone-numbers/{kind}/integrate).
 */
const OWN_FORM_TEXT = "Add this kind of number with its own form: extensions and messaging numbers have their own.";

/** The body's number in E.164, else the §8 422 on `number`. */
export function requireE164(number: string, country: string | null | undefined) {
  const normalised = normaliseNumber(number, country);
  // Built by hand: validationFailed rewords messages that start like zod's own ("Invalid …").
  const message = PHONE_NUMBER_TEXTS.invalidNumber;
  if (!normalised) throw new AppError("validation", message, {}, [{ field: "number", message }]);
  return normalised;
}

/** A trunk's stored settings and sealed password. A trunk is only reachable once SIP runs (SIP_PORT). */
export function trunkColumns(ctx: AppContext, settings: SipTrunkSettings | undefined) {
  if (!settings) {
    throw validationFailed([{ path: ["sip_trunk"], message: "Enter the SIP trunk settings for a SIP trunk number." }]);
  }
  if (ctx.config.sip.port === null) throw new AppError("validation", PHONE_NUMBER_TEXTS.sipHostMissing);
  const { password, ...stored } = settings;
  return { sipTrunk: stored, sipPassword: password ? ctx.secrets.encrypt(password) : null };
}

/**
 * Points the vendor number's webhooks at Parley. The vendor's id for the number comes from the
 * account's own list, which also proves the number belongs to that account.
 */
async function configureVendorNumber(
  ctx: AppContext,
  tenant: TenantScope,
  provider: MediaStreamProvider,
  integration: IntegrationRow,
  values: Pick<NewPhoneNumber, "number" | "friendlyName" | "country">,
): Promise<string> {
  const adapter = await telephonyFor(provider);
  const account = integrationAccount(ctx, integration);
  try {
    const owned = (await adapter.listNumbers(account)).find((n) => n.number === values.number);
    if (!owned) throw new PhoneServiceError();
    await adapter.configureNumber(account, owned, webhookUrlsFor(ctx.config.publicUrl, provider));
    return owned.providerNumberId;
  } catch (error) {
    if (isVendorFailure(error)) {
      ctx.calls.log.warn(
        { workspaceId: tenant.workspaceId, ...failureFields(error), provider, number: values.number },
        "the carrier could not configure the number",
      );
    }
    throw vendorFailure(error);
  }
}

/** The vendor columns of a new vendor number: its integration and, with one, its configured webhooks. */
async function vendorColumns(
  ctx: AppContext,
  tenant: TenantScope,
  provider: MediaStreamProvider,
  body: CreatePhoneNumberBody,
  values: Pick<NewPhoneNumber, "number" | "friendlyName" | "country">,
) {
  const integration = await vendorIntegration(ctx, tenant, provider, body.integration_id);
  if (!integration) return { integrationId: null, providerNumberId: null };
  // A duplicate is refused before the vendor is asked to change anything.
  if (await hasPhoneNumber(ctx.db, tenant, values.number)) throw new AppError("conflict", PHONE_NUMBER_TEXTS.duplicate);
  const providerNumberId = await configureVendorNumber(ctx, tenant, provider, integration, values);
  return { integrationId: integration.id, providerNumberId };
}

/**
 * POST /phone-numbers: a vendor number (webhooks configured through the workspace's integration
 * when it has one) or a number on a SIP trunk.
 */
export async function createPhoneNumber(
  ctx: AppContext,
  tenant: TenantScope,
  body: CreatePhoneNumberBody,
): Promise<PhoneNumberRecord> {
  const vendor = MediaStreamProvider.safeParse(body.provider);
  if (!vendor.success && body.provider !== "sip_trunk") {
    throw validationFailed([{ path: ["provider"], message: OWN_FORM_TEXT }]);
  }
  if (!vendor.success && body.integration_id) {
    throw validationFailed([{ path: ["integration_id"], message: "A SIP trunk number has no provider integration." }]);
  }
  const { e164, country } = requireE164(body.number, body.country);
  await requireAssistants(ctx.db, tenant, [body.agent_id, body.outbound_agent_id]);
  await requireInboundTarget(ctx.db, tenant, body);
  const base = {
    number: e164,
    friendlyName: body.friendly_name,
    country: country ?? body.country ?? null,
    provider: body.provider,
    agentId: body.agent_id,
    outboundAgentId: body.outbound_agent_id,
    squadId: body.squad_id,
  };
  const columns = vendor.success
    ? await vendorColumns(ctx, tenant, vendor.data, body, base)
    : trunkColumns(ctx, body.sip_trunk);
  return insertPhoneNumber(ctx.db, tenant, { ...base, ...columns });
}
