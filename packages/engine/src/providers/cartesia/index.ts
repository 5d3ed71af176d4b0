import { probeCheck } from "../shared/account-checks.ts";
import { requireKey } from "../shared/credentials.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import { cloneForm, deleteVoice, sampleBlob, uploadClone } from "../shared/voice-clone-form.ts";
import type { NetworkDeps } from "../types.ts";
import type { CatalogOptions, Credentials, VendorAdapters, VoiceClones, VoiceOption } from "../vendor-adapters.ts";
import { CARTESIA_VERSION, CartesiaTts } from "./tts.ts";

const ID = "cartesia";
const ROOT = "https://api.cartesia.ai";
const auth = (key: string) => ({ "x-api-key": key, "cartesia-version": CARTESIA_VERSION });
const url = (path: string, options: CatalogOptions) => withOrigin(joinUrl(ROOT, path), options.baseUrl);

interface VoicePage {
  data?: { id: string; name: string }[];
  has_more?: boolean;
}

async function listVoices(credentials: Credentials, net: NetworkDeps, options: CatalogOptions) {
  const headers = auth(requireKey(ID, credentials));
  const voices: VoiceOption[] = [];
  let after: string | undefined;
  // The list is paginated by cursor; ten pages of a hundred is far more than anyone picks from.
  for (let page = 0; page < 10; page++) {
    const query = `voices?limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`;
    const body = await vendorJson<VoicePage | { id: string; name: string }[]>({
      provider: ID,
      url: url(query, options),
      headers,
      net,
    });
    const data = Array.isArray(body) ? body : (body.data ?? []);
    voices.push(...data.map((v) => ({ id: v.id, name: v.name })));
    if (Array.isArray(body) || !body.has_more || data.length === 0) break;
    after = data.at(-1)?.id;
  }
  return voices;
}

const voiceClones: VoiceClones = {
  async create(credentials, input, net, options) {
    const form = cloneForm(ID, input);
    // Cartesia clones from a single clip (about five seconds is ideal): the first sample is used.
    const [clip] = input.files;
    if (clip) form.append("clip", sampleBlob(clip), clip.filename);
    form.append("language", input.language ?? "en");
    const endpoint = {
      provider: ID,
      url: url("voices/clone", options),
      headers: auth(requireKey(ID, credentials)),
      net,
    };
    return uploadClone(endpoint, form, (body: { id?: string }) => body.id);
  },
  async delete(credentials, serviceVoiceId, net, options) {
    const path = `voices/${encodeURIComponent(serviceVoiceId)}`;
    await deleteVoice({ provider: ID, url: url(path, options), headers: auth(requireKey(ID, credentials)), net });
  },
};

export default {
  tts: (options) => new CartesiaTts(cloudOptions(ID, options)),
  listVoices,
  testConnection: probeCheck(ID, ROOT, auth, "voices?limit=1"),
  voiceClones,
} satisfies VendorAdapters<"cartesia">;
