import { MediaStreamProvider } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { normaliseNumber } from "../phone-numbers/number-format.ts";
import { requirePhoneNumber } from "../phone-numbers/service.ts";
import { accountOf, adapterOf } from "./account.ts";

/** What the carrier says of a call Parley asked it to place, when the process that asked died. */
export type CarrierAnswer =
  | { kind: "placed"; provider: string; providerCallId: string; phoneNumberId: string }
  | { kind: "not_placed" }
  /** No lookup for this number's carrier, no credentials, or the carrier did not answer. */
  | { kind: "unknown" };

/**
 * Asks the carrier of the number `phoneNumberId` whether it has a call from that number to
 * `destination` created since `since`. The campaign dialer's crash recovery asks it about a call
 * that was logged but whose request to the carrier never got its answer: only the carrier knows
 * whether it went out. Errors are "unknown", never a guess either way.
 */
export async function askCarrierForCall(
  ctx: AppContext,
  tenant: TenantScope,
  phoneNumberId: string,
  destination: string,
  since: Date,
): Promise<CarrierAnswer> {
  try {
    const record = await requirePhoneNumber(ctx.db, tenant, phoneNumberId);
    const media = MediaStreamProvider.safeParse(record.provider);
    const to = normaliseNumber(destination, record.country)?.e164;
    if (!media.success || !to) return { kind: "unknown" };
    const adapter = await adapterOf(media.data);
    const account = await accountOf(ctx, record);
    if (!adapter?.findCall || !account) return { kind: "unknown" };
    const providerCallId = await adapter.findCall(account, { from: record.number, to, since });
    return providerCallId
      ? { kind: "placed", provider: media.data, providerCallId, phoneNumberId: record.id }
      : { kind: "not_placed" };
  } catch (error) {
    ctx.calls.log.warn(
      { workspaceId: tenant.workspaceId, phoneNumberId, ...failureFields(error) },
      "could not ask the carrier whether a call was placed",
    );
    return { kind: "unknown" };
  }
}
