import { ProviderError } from "../provider-error.ts";
import { voiceCountCheck } from "../shared/account-checks.ts";
import { requireField, requireKey } from "../shared/credentials.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { NetworkDeps } from "../types.ts";
import type { CatalogOptions, Credentials, VendorAdapters } from "../vendor-adapters.ts";
import { PlayHtTts } from "./tts.ts";

const ID = "playht";
const ROOT = "https://api.play.ht";

/** PlayHT authenticates with the secret key and the account's user id together. */
function headers(credentials: Credentials): Record<string, string> {
  return { authorization: requireKey(ID, credentials), "x-user-id": requireField(ID, credentials, "user_id") };
}

async function listVoices(credentials: Credentials, net: NetworkDeps, options: CatalogOptions) {
  const request = (path: string) => ({
    provider: ID,
    url: withOrigin(joinUrl(ROOT, path), options.baseUrl),
    headers: headers(credentials),
    net,
  });
  const stock = await vendorJson<{ id: string; name: string }[]>(request("api/v2/voices"));
  // Cloned voices live in a second list; an account without any answers with an empty one.
  const cloned = await vendorJson<{ id: string; name: string }[]>(request("api/v2/cloned-voices")).catch(() => []);
  return [...cloned, ...stock].map((v) => ({ id: v.id, name: v.name }));
}

/** A call's voice needs the user id too; its error names the vendor first, as the key's does. */
function userIdOf(credentials: Credentials): string {
  const userId = credentials?.user_id?.trim();
  if (!userId) throw new ProviderError("PlayHT", "No user ID for PlayHT. Add it on the Integrations page.", false);
  return userId;
}

export default {
  tts: (options) => new PlayHtTts({ ...cloudOptions(ID, options), userId: userIdOf(options.credentials) }),
  listVoices,
  testConnection: voiceCountCheck(ID, listVoices),
} satisfies VendorAdapters<"playht">;
