import { ProviderError } from "../provider-error.ts";
import type { NetworkDeps } from "../types.ts";
import type { VoiceCloneInput } from "../vendor-adapters.ts";
import { vendorJson, vendorRequest } from "./vendor-request.ts";

/** Creating a voice means uploading audio: allow more time than a catalog call. */
const UPLOAD_TIMEOUT_MS = 120_000;

/** The multipart form every clone upload starts from; refuses an upload without samples. */
export function cloneForm(provider: string, input: VoiceCloneInput): FormData {
  if (input.files.length === 0) {
    throw new ProviderError(provider, "A voice clone needs at least one audio sample.", false);
  }
  const form = new FormData();
  form.append("name", input.name);
  if (input.description) form.append("description", input.description);
  return form;
}

export function sampleBlob(file: VoiceCloneInput["files"][number]): Blob {
  return new Blob([new Uint8Array(file.data)], { type: file.contentType });
}

/** Where a vendor takes (or removes) a voice, and with which credentials. */
export interface VoiceEndpoint {
  provider: string;
  url: string;
  headers: Record<string, string>;
  net: NetworkDeps;
}

/**
 * Uploads the clone form and reads the new voice's id from the answer (`idOf`); a missing id is a
 * retryable error.
 */
export async function uploadClone<Body>(
  endpoint: VoiceEndpoint,
  form: FormData,
  idOf: (body: Body) => string | undefined,
): Promise<{ serviceVoiceId: string }> {
  const body = await vendorJson<Body>({ ...endpoint, body: form, timeoutMs: UPLOAD_TIMEOUT_MS });
  const id = idOf(body);
  if (!id) throw new ProviderError(endpoint.provider, "created the voice but did not say its id", true);
  return { serviceVoiceId: id };
}

/** Deletes a voice; one that is already gone counts as deleted. */
export async function deleteVoice(endpoint: VoiceEndpoint): Promise<void> {
  try {
    await vendorRequest({ ...endpoint, method: "DELETE" });
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return;
    throw error;
  }
}
