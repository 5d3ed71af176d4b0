import {
  credentialsProblem,
  type ImportNumbersBody,
  type ImportNumbersResult,
  integrationProvider,
  type MediaStreamProvider,
  PHONE_NUMBER_TEXTS,
} from "@parley/contract";
import type { TelephonyAccount, TelephonyAdapter, VendorNumber, WebhookUrls } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { validationFailed } from "../../lib/field-errors.ts";
import { failureFields } from "../../lib/log-options.ts";
import { requireOwner, type Tenant } from "../../lib/tenant-scope.ts";
import { findIntegration } from "../integrations/credentials.ts";
import { saveIntegration } from "../integrations/service.ts";
import { requireAssistants } from "./assistant-links.ts";
import { importFailure, isUnreachable } from "./import-failures.ts";
import { normaliseNumber } from "./number-format.ts";
import { deletePhoneNumber, insertPhoneNumber } from "./service.ts";
import {
  accountFrom,
  type IntegrationRow,
  integrationAccount,
  isVendorFailure,
  telephonyFor,
  vendorIntegration,
} from "./vendor-account.ts";
import { webhookUrlsFor } from "./webhook-urls.ts";

type Failure = ImportNumbersResult["failures"][number];

/** Credentials typed in the import dialog, checked against the vendor's fields before anything is sent. */
function typedCredentials(provider: MediaStreamProvider, given: Record<string, string>): Record<string, string> {
  const info = integrationProvider(provider);
  const credentials = Object.fromEntries(
    Object.entries(given)
      .map(([name, value]) => [name, value.trim()] as const)
      .filter(([, value]) => value !== ""),
  );
  const problem = info ? credentialsProblem(info, credentials) : null;
  if (problem) throw new AppError("validation", problem);
  return credentials;
}

/**
 * The account's numbers; keys the vendor refuses are a 400, an API out of reach or failing a 502,
 * each saying which (import-failures.ts). An unreachable API may be the server's egress, so the
 * operator hears of it too.
 */
async function listAccountNumbers(
  ctx: AppContext,
  tenant: Tenant,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  account: TelephonyAccount,
): Promise<VendorNumber[]> {
  try {
    return await adapter.listNumbers(account);
  } catch (error) {
    const unreachable = isUnreachable(error) ? { origin: error.origin } : {};
    ctx.calls.log.warn(
      { workspaceId: tenant.workspaceId, ...failureFields(error), provider, ...unreachable },
      isUnreachable(error)
        ? "a vendor's API could not be reached to list numbers"
        : "the carrier could not list the account's numbers",
    );
    throw importFailure(error);
  }
}

interface ImportTarget {
  ctx: AppContext;
  tenant: Tenant;
  provider: MediaStreamProvider;
  adapter: TelephonyAdapter;
  account: TelephonyAccount;
  integration: IntegrationRow;
  agentId: string | null;
  urls: WebhookUrls;
}

/** Imports one number: stored, then pointed at Parley; a number the vendor will not configure is not kept. */
async function importOne(target: ImportTarget, vendorNumber: VendorNumber): Promise<Failure | null> {
  const { ctx, tenant } = target;
  const normalised = normaliseNumber(vendorNumber.number);
  if (!normalised) return { number: vendorNumber.number, reason: PHONE_NUMBER_TEXTS.invalidNumber };
  const number = normalised.e164;
  let id: string;
  try {
    const row = await insertPhoneNumber(ctx.db, tenant, {
      number,
      friendlyName: vendorNumber.friendlyName.slice(0, 100),
      country: vendorNumber.country ?? normalised.country,
      provider: target.provider,
      agentId: target.agentId,
      integrationId: target.integration.id,
      providerNumberId: vendorNumber.providerNumberId,
    });
    id = row.id;
  } catch (error) {
    if (error instanceof AppError) return { number, reason: error.message };
    throw error;
  }
  try {
    await target.adapter.configureNumber(target.account, vendorNumber, target.urls);
    ctx.events.emit("phone_number.updated", { workspaceId: tenant.workspaceId, phoneNumberId: id, action: "created" });
    return null;
  } catch (error) {
    if (!isVendorFailure(error)) throw error;
    ctx.calls.log.warn(
      { workspaceId: tenant.workspaceId, ...failureFields(error), provider: target.provider, number },
      "the carrier could not point an imported number at Parley",
    );
    await deletePhoneNumber(ctx.db, tenant, id);
    return { number, reason: PHONE_NUMBER_TEXTS.configureFailed };
  }
}

type ImportSource =
  | { kind: "saved"; account: TelephonyAccount; integration: IntegrationRow }
  | { kind: "typed"; account: TelephonyAccount; credentials: Record<string, string> };

/**
 * Where the numbers come from: the chosen saved integration, or credentials typed in the dialog.
 * Typed ones become the workspace's integration for the vendor once it accepts them, so imported
 * numbers keep working; saving credentials is for owners only, as on the Integrations page.
 */
async function importSource(ctx: AppContext, tenant: Tenant, body: ImportNumbersBody): Promise<ImportSource> {
  if (body.credentials) {
    requireOwner(tenant);
    const credentials = typedCredentials(body.provider, body.credentials);
    return { kind: "typed", account: accountFrom(ctx, credentials), credentials };
  }
  const integration = await vendorIntegration(ctx, tenant, body.provider, body.integration_id);
  if (!integration) {
    throw validationFailed([
      { path: ["integration_id"], message: "Choose a saved integration or enter the provider credentials." },
    ]);
  }
  return { kind: "saved", account: integrationAccount(ctx, integration), integration };
}

async function integrationOf(ctx: AppContext, tenant: Tenant, provider: MediaStreamProvider, source: ImportSource) {
  if (source.kind === "saved") return source.integration;
  await saveIntegration(ctx, tenant, provider, source.credentials);
  const saved = await findIntegration(ctx.db, tenant, provider);
  if (!saved) throw new Error("saved integration not found");
  return saved;
}

/**
 * POST /phone-numbers/providers/import-numbers: every number of the vendor account, stored in the
 * workspace with its voice webhook pointed at PUBLIC_URL. Numbers already registered, or that the
 * vendor will not configure, are counted as failed with the reason.
 */
export async function importNumbers(
  ctx: AppContext,
  tenant: Tenant,
  body: ImportNumbersBody,
): Promise<ImportNumbersResult> {
  await requireAssistants(ctx.db, tenant, [body.agent_id]);
  const adapter = await telephonyFor(body.provider);
  const source = await importSource(ctx, tenant, body);
  const numbers = await listAccountNumbers(ctx, tenant, body.provider, adapter, source.account);
  if (numbers.length === 0) return { imported_count: 0, failed_count: 0, failures: [] };
  const target: ImportTarget = {
    ctx,
    tenant,
    provider: body.provider,
    adapter,
    account: source.account,
    integration: await integrationOf(ctx, tenant, body.provider, source),
    agentId: body.agent_id,
    urls: webhookUrlsFor(ctx.config.publicUrl, body.provider),
  };
  const failures: Failure[] = [];
  // One at a time: vendors rate-limit number updates, and the failures read in the account's order.
  for (const vendorNumber of numbers) {
    const failure = await importOne(target, vendorNumber);
    if (failure) failures.push(failure);
  }
  return { imported_count: numbers.length - failures.length, failed_count: failures.length, failures };
}
