import { voiceCountCheck } from "../shared/account-checks.ts";
import { requireKey } from "../shared/credentials.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { NetworkDeps } from "../types.ts";
import type { CatalogOptions, Credentials, VendorAdapters } from "../vendor-adapters.ts";
import { NeuphonicTts } from "./tts.ts";

const ID = "neuphonic";

interface NeuphonicVoice {
  voice_id?: string;
  id?: string;
  name?: string;
  voice_name?: string;
}

async function listVoices(credentials: Credentials, net: NetworkDeps, options: CatalogOptions) {
  const body = await vendorJson<{ data?: { voices?: NeuphonicVoice[] } }>({
    provider: ID,
    url: withOrigin(joinUrl("https://api.neuphonic.com", "voices"), options.baseUrl),
    headers: { "x-api-key": requireKey(ID, credentials) },
    net,
  });
  return (body.data?.voices ?? []).map((v) => ({ id: v.voice_id ?? v.id ?? "", name: v.name ?? v.voice_name ?? "" }));
}

export default {
  tts: (options) => new NeuphonicTts(cloudOptions(ID, options)),
  listVoices,
  testConnection: voiceCountCheck(ID, listVoices),
} satisfies VendorAdapters<"neuphonic">;
