import { integrationProvider, type MediaStreamProvider, PHONE_NUMBER_TEXTS } from "@parley/contract";
import {
  loadTelephony,
  MissingCredentialError,
  type TelephonyAccount,
  type TelephonyAdapter,
  TelephonyError,
} from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { validationFailed } from "../../lib/field-errors.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findIntegration, usableCredentials } from "../integrations/credentials.ts";

/**
 * A vendor could not do what was asked (configure a number, list an account's numbers): a 502 with
 * the §8 text, since the fault is upstream of Parley. The routes answer it (AppError has no 502).
 */
export class PhoneServiceError extends Error {
  readonly status = 502;
  constructor(message: string = PHONE_NUMBER_TEXTS.configureFailed, cause?: unknown) {
    super(message, { cause });
    this.name = "PhoneServiceError";
  }
}

/** A saved integration as the integrations service returns it (its table is that module's own). */
export type IntegrationRow = NonNullable<Awaited<ReturnType<typeof findIntegration>>>;

/** The vendor's telephony stage; every media-stream provider has one, so a missing one is a 502. */
export async function telephonyFor(provider: MediaStreamProvider): Promise<TelephonyAdapter> {
  const adapter = await loadTelephony(provider);
  if (!adapter) throw new PhoneServiceError();
  return adapter;
}

/** An account from credentials: the optional `base_url` credential aims it at a regional edge or a double. */
export function accountFrom(ctx: Pick<AppContext, "network">, credentials: Record<string, string>): TelephonyAccount {
  return { credentials, net: ctx.network, baseUrl: credentials.base_url?.trim() || undefined };
}

/** The saved integration's account: its secrets only on the host they were saved with. */
export function integrationAccount(
  ctx: Pick<AppContext, "network" | "secrets" | "calls">,
  row: IntegrationRow,
): TelephonyAccount {
  return accountFrom(ctx, usableCredentials(ctx, row));
}

/**
 * The workspace's saved integration for the vendor. With an id, it must be that integration
 * (another workspace's, or another vendor's, is a 422 on `integration_id`); without one, the
 * workspace's integration for the vendor when there is one.
 */
export async function vendorIntegration(
  ctx: AppContext,
  tenant: TenantScope,
  provider: MediaStreamProvider,
  integrationId: string | null | undefined,
): Promise<IntegrationRow | undefined> {
  const row = await findIntegration(ctx.db, tenant, provider);
  if (integrationId && row?.id !== integrationId) {
    const label = integrationProvider(provider)?.label ?? provider;
    throw validationFailed([
      { path: ["integration_id"], message: `Choose a saved ${label} integration of this workspace.` },
    ]);
  }
  return row;
}

/** True for a vendor's refusal or outage (and keys missing a field the vendor needs), as opposed to a bug. */
export function isVendorFailure(error: unknown): error is TelephonyError | MissingCredentialError {
  return error instanceof TelephonyError || error instanceof MissingCredentialError;
}

/** A vendor failure as the §8 502; anything else unchanged (to be rethrown). */
export function vendorFailure(error: unknown, message: string = PHONE_NUMBER_TEXTS.configureFailed): unknown {
  return isVendorFailure(error) ? new PhoneServiceError(message, error) : error;
}
