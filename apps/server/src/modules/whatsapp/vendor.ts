import type { CallChannel, PhoneProvider } from "@parley/contract";
import { type CallingAccount, type CallingAdapter, loadCalling } from "@parley/engine/webrtc";
import type { AppContext } from "../../context.ts";
import type { PhoneNumberRecord } from "../phone-numbers/service.ts";

/**
 * The one file of this module that names its platform: the provider and channel ids, the
 * server-wide settings, and the platform's calling adapter (loaded from its engine folder).
 */
export const PROVIDER = "whatsapp" satisfies PhoneProvider;
export const CHANNEL = "whatsapp" satisfies CallChannel;

/** Server-wide app secret (fallback for numbers integrated without their own) and the Graph API root. */
export function platformSettings(ctx: Pick<AppContext, "config">): { appSecret: string | undefined; apiUrl: string } {
  const { appSecret, graphApiUrl } = ctx.config.whatsapp;
  return { appSecret, apiUrl: graphApiUrl };
}

let adapter: Promise<CallingAdapter> | null = null;

/** The platform's calling adapter; its absence is a build error, not a request's. */
export function callingAdapter(): Promise<CallingAdapter> {
  adapter ??= loadCalling(PROVIDER).then((loaded) => {
    if (!loaded) throw new Error(`the ${PROVIDER} adapters have no calling member`);
    return loaded;
  });
  return adapter;
}

/** The stored number's API account (its token opened). */
export function accountOf(
  ctx: Pick<AppContext, "config" | "network">,
  record: PhoneNumberRecord,
  accessToken: string,
): CallingAccount {
  return {
    apiUrl: platformSettings(ctx).apiUrl,
    accessToken,
    numberId: record.whatsappPhoneNumberId ?? "",
    net: ctx.network,
  };
}
