import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps } from "../providers/types.ts";
import { joinUrl, withOrigin } from "../providers/vendor-url.ts";
import { type Credentials, requireField, SPEECH_VENDORS } from "./vendor-auth.ts";
import { vendorFetch, vendorJson } from "./vendor-http.ts";

export type CloneProvider = "elevenlabs" | "cartesia";

export interface VoiceCloneInput {
  name: string;
  description?: string;
  language?: string;
  files: { filename: string; contentType: string; data: Buffer }[];
}

export interface VoiceCloneOptions {
  /** Replaces the vendor's origin, keeping its paths: for tests. */
  baseUrl?: string;
}

/** Creating a voice means uploading audio: allow more time than a catalog call. */
const UPLOAD_TIMEOUT_MS = 120_000;

/** Creates an instant voice clone from audio samples; returns the vendor's id of the new voice. */
export async function createVoiceClone(
  provider: CloneProvider,
  credentials: Credentials,
  input: VoiceCloneInput,
  net: NetworkDeps,
  options: VoiceCloneOptions = {},
): Promise<{ serviceVoiceId: string }> {
  if (input.files.length === 0)
    throw new ProviderError(provider, "A voice clone needs at least one audio sample.", false);
  const { root, auth } = SPEECH_VENDORS[provider];
  const headers = auth(requireField(provider, credentials, "api_key"));
  const form = new FormData();
  form.append("name", input.name);
  if (input.description) form.append("description", input.description);
  if (provider === "elevenlabs") {
    // ElevenLabs learns from every sample; the language goes in its free-form labels.
    for (const file of input.files) form.append("files", blob(file), file.filename);
    if (input.language) form.append("labels", JSON.stringify({ language: input.language }));
    const url = withOrigin(joinUrl(root, "v1/voices/add"), options.baseUrl);
    const body = await vendorJson<{ voice_id?: string }>(
      { provider, url, method: "POST", headers, body: form, timeoutMs: UPLOAD_TIMEOUT_MS },
      net,
    );
    return { serviceVoiceId: required(provider, body.voice_id) };
  }
  // Cartesia clones from a single clip (about five seconds is ideal): the first sample is used.
  const [clip] = input.files;
  if (clip) form.append("clip", blob(clip), clip.filename);
  form.append("language", input.language ?? "en");
  const url = withOrigin(joinUrl(root, "voices/clone"), options.baseUrl);
  const body = await vendorJson<{ id?: string }>(
    { provider, url, method: "POST", headers, body: form, timeoutMs: UPLOAD_TIMEOUT_MS },
    net,
  );
  return { serviceVoiceId: required(provider, body.id) };
}

/** Deletes a cloned voice at the vendor; a voice that is already gone counts as deleted. */
export async function deleteVoiceClone(
  provider: CloneProvider,
  credentials: Credentials,
  serviceVoiceId: string,
  net: NetworkDeps,
  options: VoiceCloneOptions = {},
): Promise<void> {
  const { root, auth } = SPEECH_VENDORS[provider];
  const headers = auth(requireField(provider, credentials, "api_key"));
  const path =
    provider === "elevenlabs"
      ? `v1/voices/${encodeURIComponent(serviceVoiceId)}`
      : `voices/${encodeURIComponent(serviceVoiceId)}`;
  try {
    await vendorFetch(
      { provider, url: withOrigin(joinUrl(root, path), options.baseUrl), method: "DELETE", headers },
      net,
    );
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return;
    throw error;
  }
}

function blob(file: VoiceCloneInput["files"][number]): Blob {
  return new Blob([new Uint8Array(file.data)], { type: file.contentType });
}

function required(provider: string, id: string | undefined): string {
  if (!id) throw new ProviderError(provider, "created the voice but did not say its id", true);
  return id;
}
