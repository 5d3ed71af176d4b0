import { voiceCountCheck } from "../shared/account-checks.ts";
import { requireKey } from "../shared/credentials.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import { cloneForm, deleteVoice, sampleBlob, uploadClone } from "../shared/voice-clone-form.ts";
import type { NetworkDeps } from "../types.ts";
import type { CatalogOptions, Credentials, ModelListing, VendorAdapters, VoiceClones } from "../vendor-adapters.ts";
import { ElevenLabsTts } from "./tts.ts";

const ID = "elevenlabs";
const ROOT = "https://api.elevenlabs.io";
const url = (path: string, options: CatalogOptions) => withOrigin(joinUrl(ROOT, path), options.baseUrl);
const headers = (credentials: Credentials) => ({ "xi-api-key": requireKey(ID, credentials) });

const listModels: ModelListing = {
  kinds: ["tts"],
  async list(_kind, credentials, net, options) {
    const body = await vendorJson<{ model_id: string; can_do_text_to_speech?: boolean }[]>({
      provider: ID,
      url: url("v1/models", options),
      headers: headers(credentials),
      net,
    });
    return body.filter((m) => m.can_do_text_to_speech !== false).map((m) => m.model_id);
  },
};

async function listVoices(credentials: Credentials, net: NetworkDeps, options: CatalogOptions) {
  const body = await vendorJson<{ voices?: { voice_id: string; name: string }[] }>({
    provider: ID,
    url: url("v1/voices", options),
    headers: headers(credentials),
    net,
  });
  return (body.voices ?? []).map((v) => ({ id: v.voice_id, name: v.name }));
}

const voiceClones: VoiceClones = {
  async create(credentials, input, net, options) {
    const form = cloneForm(ID, input);
    // ElevenLabs learns from every sample; the language goes in its free-form labels.
    for (const file of input.files) form.append("files", sampleBlob(file), file.filename);
    if (input.language) form.append("labels", JSON.stringify({ language: input.language }));
    const endpoint = { provider: ID, url: url("v1/voices/add", options), headers: headers(credentials), net };
    return uploadClone(endpoint, form, (body: { voice_id?: string }) => body.voice_id);
  },
  async delete(credentials, serviceVoiceId, net, options) {
    const path = `v1/voices/${encodeURIComponent(serviceVoiceId)}`;
    await deleteVoice({ provider: ID, url: url(path, options), headers: headers(credentials), net });
  },
};

export default {
  tts: (options) => new ElevenLabsTts(cloudOptions(ID, options)),
  listModels,
  listVoices,
  testConnection: voiceCountCheck(ID, listVoices),
  voiceClones,
} satisfies VendorAdapters<"elevenlabs">;
