import type { AppContext } from "../../context.ts";

const LOOKUP_TRIES = 10;
const LOOKUP_PAUSE_MS = 200;

/** How a webhook names a call Parley placed: its own id, and the id placeCall returned when they differ. */
export interface CarrierIds {
  providerCallId: string;
  placedCallId?: string | undefined;
}

async function lookup(ctx: AppContext, provider: string, ids: CarrierIds) {
  const { state } = ctx.calls;
  const direct = await state.findByCarrierId(provider, ids.providerCallId);
  if (direct || !ids.placedCallId || ids.placedCallId === ids.providerCallId) return direct;
  const placed = await state.findByCarrierId(provider, ids.placedCallId);
  // The vendor named the call by a request id first: from now on the log holds the call's own id.
  if (!placed) return null;
  const carrier = { provider, providerCallId: ids.providerCallId, phoneNumberId: placed.phoneNumberId };
  await state.setCarrier({ workspaceId: placed.workspaceId }, placed.id, carrier);
  return { ...placed, ...carrier };
}

/**
 * A call by its carrier id. The carrier may call back (ringing, answered) before the request that
 * placed the call has stored the id it got, so a miss is retried for about two seconds before it
 * counts as unknown.
 */
export async function findPlacedCall(ctx: AppContext, provider: string, ids: CarrierIds) {
  for (let attempt = 0; ; attempt += 1) {
    const found = await lookup(ctx, provider, ids);
    if (found || attempt >= LOOKUP_TRIES) return found;
    await new Promise((resolve) => setTimeout(resolve, LOOKUP_PAUSE_MS));
  }
}
