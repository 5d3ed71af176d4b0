import {
  API_BASE_PATH,
  E164,
  PHONE_NUMBER_TEXTS,
  type WhatsappIntegrateBody,
  type WhatsappIntegrateResult,
} from "@parley/contract";
import type { NumberProblem } from "@parley/engine/webrtc";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";
import { normaliseNumber } from "../phone-numbers/number-format.ts";
import { assistantNames, hasPhoneNumber, insertPhoneNumber, toPhoneNumber } from "../phone-numbers/service.ts";
import { callingAdapter, PROVIDER, platformSettings } from "./vendor.ts";
import { newVerifyToken } from "./verify-token.ts";

/** Where the platform posts this module's webhooks. */
export const WEBHOOK_PATH = `/telephony/${PROVIDER}/webhook`;

const PROBLEM_ERRORS: Record<NumberProblem, () => AppError> = {
  invalid_token: () => new AppError("bad_request", PHONE_NUMBER_TEXTS.whatsappInvalidToken),
  invalid_number_id: () => new AppError("bad_request", PHONE_NUMBER_TEXTS.whatsappInvalidPhoneNumberId),
  /** A number not in E.164, or not the number behind the Phone Number ID. */
  number_mismatch: () =>
    new AppError("validation", PHONE_NUMBER_TEXTS.whatsappInvalidNumber, {}, [
      { field: "number", message: PHONE_NUMBER_TEXTS.whatsappInvalidNumber },
    ]),
  unreachable: () => new AppError("unavailable", PHONE_NUMBER_TEXTS.whatsappUnreachable),
};

/**
 * POST /phone-numbers/{platform}/integrate: checks the credentials against the Cloud API (the token
 * reads the Phone Number ID, which is the number given), subscribes the app to the business
 * account's webhooks, and stores the number with its token and app secret sealed and a new verify
 * token for the webhook.
 */
export async function integrateNumber(
  ctx: AppContext,
  tenant: TenantScope,
  body: WhatsappIntegrateBody,
): Promise<WhatsappIntegrateResult> {
  if (!E164.safeParse(body.number).success) throw PROBLEM_ERRORS.number_mismatch();
  if (body.agent_id) await requireAgent(ctx.db, tenant, body.agent_id);
  if (await hasPhoneNumber(ctx.db, tenant, body.number)) throw new AppError("conflict", PHONE_NUMBER_TEXTS.duplicate);
  const adapter = await callingAdapter();
  const account = {
    apiUrl: platformSettings(ctx).apiUrl,
    accessToken: body.access_token,
    numberId: body.phone_number_id,
    net: ctx.network,
  };
  const check = await adapter.checkNumber(account, body.number);
  if (!check.ok) throw PROBLEM_ERRORS[check.problem]();
  try {
    await adapter.subscribeApp(account, body.business_account_id);
  } catch (error) {
    ctx.calls.log.warn(
      { workspaceId: tenant.workspaceId, provider: PROVIDER, ...failureFields(error) },
      "the WhatsApp platform would not subscribe Parley to the business account's webhooks",
    );
    throw new AppError("bad_request", PHONE_NUMBER_TEXTS.configureFailed);
  }
  const verifyToken = newVerifyToken(body.number);
  const record = await insertPhoneNumber(ctx.db, tenant, {
    number: body.number,
    friendlyName: body.friendly_name || check.verifiedName || "",
    country: normaliseNumber(body.number)?.country ?? null,
    provider: PROVIDER,
    agentId: body.agent_id,
    providerNumberId: body.phone_number_id,
    whatsappPhoneNumberId: body.phone_number_id,
    whatsappBusinessAccountId: body.business_account_id,
    whatsappAccessToken: ctx.secrets.encrypt(body.access_token),
    whatsappAppSecret: body.app_secret ? ctx.secrets.encrypt(body.app_secret) : null,
    whatsappVerifyToken: verifyToken,
  });
  return {
    phone_number: toPhoneNumber(record, await assistantNames(ctx.db, tenant)),
    webhook: {
      callback_url: `${ctx.config.publicUrl.replace(/\/+$/, "")}${API_BASE_PATH}${WEBHOOK_PATH}`,
      verify_token: verifyToken,
    },
  };
}
