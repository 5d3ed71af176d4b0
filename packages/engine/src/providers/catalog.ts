import type { CloneService, TtsProviderId } from "@parley/contract";
import { providerLabel } from "@parley/contract";
import { loadVendor } from "./load-vendor.ts";
import { ProviderError } from "./provider-error.ts";
import type { NetworkDeps } from "./types.ts";
import type {
  CatalogOptions,
  Credentials,
  ModelKind,
  ModelListing,
  VoiceCloneInput,
  VoiceClones,
  VoiceOption,
} from "./vendor-adapters.ts";

/** A vendor's live catalog: models, voices, connection tests and voice clones, from its own folder. */

export interface ListModelsOptions extends CatalogOptions {
  /** Which of the vendor's products (some have several); the vendor's main one when unset. */
  kind?: ModelKind;
}

export interface ConnectionResult {
  ok: boolean;
  message: string;
}

async function modelListing(provider: string): Promise<ModelListing | undefined> {
  return (await loadVendor(provider))?.listModels;
}

/** Whether `listModels` can ask this vendor for its models of `kind` (others have a fixed catalog). */
export async function hasModelListing(provider: string, kind?: ModelKind): Promise<boolean> {
  const listing = await modelListing(provider);
  return listing !== undefined && (kind === undefined || listing.kinds.includes(kind));
}

/** The model ids a vendor offers this account, fetched live, deduplicated and sorted. */
export async function listModels(
  provider: string,
  credentials: Credentials,
  net: NetworkDeps,
  options: ListModelsOptions = {},
): Promise<string[]> {
  const listing = await modelListing(provider);
  const kind = options.kind ?? listing?.kinds[0];
  if (!listing || !kind || !listing.kinds.includes(kind)) {
    throw new ProviderError(provider, `${providerLabel(provider)} has no model list to fetch.`, false);
  }
  const ids = await listing.list(kind, credentials, net, options);
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

/** The voices a text-to-speech provider offers this account, fetched live from the vendor. */
export async function listVoices(
  provider: TtsProviderId,
  credentials: Credentials,
  net: NetworkDeps,
  options: CatalogOptions = {},
): Promise<VoiceOption[]> {
  const list = (await loadVendor(provider))?.listVoices;
  if (!list) throw new ProviderError(provider, `${providerLabel(provider)} has no voice list.`, false);
  return list(credentials, net, options);
}

/** Makes one cheap authenticated call to the vendor and says, in a sentence, whether the credentials work. */
export async function testConnection(
  provider: string,
  credentials: Credentials,
  net: NetworkDeps,
  options: Pick<CatalogOptions, "baseUrl"> = {},
): Promise<ConnectionResult> {
  const check = (await loadVendor(provider))?.testConnection;
  if (!check) return { ok: false, message: `Parley cannot check ${providerLabel(provider)} connections.` };
  try {
    return { ok: true, message: await check(credentials, net, options.baseUrl) };
  } catch (error) {
    return { ok: false, message: failureMessage(provider, error) };
  }
}

async function voiceClones(provider: string): Promise<VoiceClones> {
  const clones = (await loadVendor(provider))?.voiceClones;
  if (!clones) throw new ProviderError(provider, `${providerLabel(provider)} cannot clone voices.`, false);
  return clones;
}

/** Creates an instant voice clone from audio samples; returns the vendor's id of the new voice. */
export async function createVoiceClone(
  provider: CloneService,
  credentials: Credentials,
  input: VoiceCloneInput,
  net: NetworkDeps,
  options: CatalogOptions = {},
): Promise<{ serviceVoiceId: string }> {
  return (await voiceClones(provider)).create(credentials, input, net, options);
}

/** Deletes a cloned voice at the vendor; a voice that is already gone counts as deleted. */
export async function deleteVoiceClone(
  provider: CloneService,
  credentials: Credentials,
  serviceVoiceId: string,
  net: NetworkDeps,
  options: CatalogOptions = {},
): Promise<void> {
  return (await voiceClones(provider)).delete(credentials, serviceVoiceId, net, options);
}

function failureMessage(provider: string, error: unknown): string {
  const label = providerLabel(provider);
  if (!(error instanceof ProviderError)) return error instanceof Error ? capitalize(error.message) : String(error);
  const detail = error.message.startsWith(`${error.provider}: `)
    ? error.message.slice(error.provider.length + 2)
    : error.message;
  if (error.status === 401 || error.status === 403) return `${label} rejected the credentials (${detail}).`;
  if (error.status === undefined && error.retryable) return `Could not reach ${label}: ${detail}.`;
  return error.status === undefined ? detail : `${label} answered with an error (${detail}).`;
}

function capitalize(text: string): string {
  return text ? text[0]?.toUpperCase() + text.slice(1) : text;
}
