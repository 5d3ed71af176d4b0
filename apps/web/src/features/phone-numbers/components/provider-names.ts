import { MediaStreamProvider, PhoneProvider, providerDescriptor } from "@parley/contract";
import type { TFunction } from "i18next";

/**
 * Provider facts come from the contract's descriptors, so the web names no vendor: the media-stream
 * vendors and the messaging app carry their labels there; SIP trunks and extensions are Parley's
 * own and are named in the interface language.
 */
const OWN_PROVIDERS = new Set<PhoneProvider>(["sip_trunk", "extension"]);

/** The phone provider whose descriptor is a messaging app: its numbers take calls through that app. */
export const MESSAGING_PROVIDER: PhoneProvider | undefined = PhoneProvider.options.find(
  (p) => !OWN_PROVIDERS.has(p) && providerDescriptor(p)?.integrationKinds.includes("messaging"),
);

export const providerLabel = (provider: string) => providerDescriptor(provider)?.label ?? provider;

export function phoneProviderLabel(provider: PhoneProvider, t: TFunction): string {
  return OWN_PROVIDERS.has(provider) ? t(`providers.${provider}`) : providerLabel(provider);
}

/**
 * The name people know the messaging app by, for "… number integrated" (spec §8): its descriptor
 * labels the business product ("<app> Business"), the notices name the app.
 */
export const messagingBrand = (): string =>
  MESSAGING_PROVIDER ? providerLabel(MESSAGING_PROVIDER).replace(/\s+Business$/, "") : "";

/** The vendor a dialog starts on: the contract's first media-stream provider (the enum is never empty). */
export const FIRST_MEDIA_PROVIDER: MediaStreamProvider = MediaStreamProvider.parse(MediaStreamProvider.options[0]);
