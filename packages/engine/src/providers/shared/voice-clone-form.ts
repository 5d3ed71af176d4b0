import { ProviderError } from "../provider-error.ts";
import type { VoiceCloneInput } from "../vendor-adapters.ts";

/** Creating a voice means uploading audio: allow more time than a catalog call. */
export const UPLOAD_TIMEOUT_MS = 120_000;

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

/** The new voice's id, or a retryable error when the vendor did not say it. */
export function createdVoiceId(provider: string, id: string | undefined): { serviceVoiceId: string } {
  if (!id) throw new ProviderError(provider, "created the voice but did not say its id", true);
  return { serviceVoiceId: id };
}

/** Runs a vendor delete; a voice that is already gone counts as deleted. */
export async function deleteIgnoringMissing(remove: () => Promise<unknown>): Promise<void> {
  try {
    await remove();
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return;
    throw error;
  }
}
