import { LLM_PROVIDERS } from "@parley/contract";
import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps } from "../providers/types.ts";
import { joinUrl, withOrigin } from "../providers/vendor-url.ts";
import { listModels } from "./models.ts";
import { type AccountCheck, TELEPHONY_CHECKS } from "./telephony-checks.ts";
import { type Credentials, labelOf, requireField, SPEECH_VENDORS, type SpeechVendor } from "./vendor-auth.ts";
import { vendorFetch, vendorJson } from "./vendor-http.ts";
import { listVoices } from "./voices.ts";

export interface ConnectionResult {
  ok: boolean;
  message: string;
}

export interface TestConnectionOptions {
  /** Replaces the vendor's origin, keeping its paths: for tests. */
  baseUrl?: string;
}

/** Makes one cheap authenticated call to the vendor and says, in a sentence, whether the credentials work. */
export async function testConnection(
  provider: string,
  credentials: Credentials,
  net: NetworkDeps,
  options: TestConnectionOptions = {},
): Promise<ConnectionResult> {
  const check = checkFor(provider);
  if (!check) return { ok: false, message: `Parley cannot check ${labelOf(provider)} connections.` };
  try {
    return { ok: true, message: await check(credentials, net, options.baseUrl) };
  } catch (error) {
    return { ok: false, message: failureMessage(provider, error) };
  }
}

function checkFor(provider: string): AccountCheck | undefined {
  if (provider === "local") return async () => "Runs on this server: no key needed.";
  if ((LLM_PROVIDERS as readonly string[]).includes(provider)) return llmCheck(provider);
  return SPEECH_CHECKS[provider] ?? TELEPHONY_CHECKS[provider];
}

function llmCheck(provider: string): AccountCheck {
  return async (credentials, net, baseUrl) => {
    const models = await listModels(provider, credentials, net, { kind: "llm", baseUrl });
    return `Connected to ${labelOf(provider)}. ${count(models.length, "model")} available.`;
  };
}

/** A GET to a vendor path with its auth header; the answer itself is not needed. */
function probe(vendor: SpeechVendor, path: string, describe?: (body: unknown) => string): AccountCheck {
  return async (credentials, net, baseUrl) => {
    const { root, auth } = SPEECH_VENDORS[vendor];
    const headers = auth(requireField(vendor, credentials, "api_key"));
    const url = withOrigin(joinUrl(root, path), baseUrl);
    const body = await vendorJson<unknown>({ provider: vendor, url, headers }, net);
    return describe?.(body) ?? `Connected to ${labelOf(vendor)}.`;
  };
}

function voicesCheck(provider: "elevenlabs" | "playht" | "neuphonic"): AccountCheck {
  return async (credentials, net, baseUrl) => {
    const voices = await listVoices(provider, credentials, net, { baseUrl });
    return `Connected to ${labelOf(provider)}. ${count(voices.length, "voice")} available.`;
  };
}

const SPEECH_CHECKS: Record<string, AccountCheck> = {
  elevenlabs: voicesCheck("elevenlabs"),
  playht: voicesCheck("playht"),
  neuphonic: voicesCheck("neuphonic"),
  cartesia: probe("cartesia", "voices?limit=1"),
  deepgram: probe("deepgram", "v1/projects", (body) => {
    const name = (body as { projects?: { name?: string }[] }).projects?.[0]?.name;
    return name ? `Connected to Deepgram project "${name}".` : "Connected to Deepgram.";
  }),
  "assembly-ai": probe("assembly-ai", "v2/transcript?limit=1"),
  speechmatics: probe("speechmatics", "v2/jobs?limit=1"),
  hamsa: probe("hamsa", "v1/projects/by-api-key", (body) => {
    const name = (body as { data?: { name?: string } }).data?.name;
    return name ? `Connected to Hamsa project "${name}".` : "Connected to Hamsa.";
  }),
  async "rime-ai"(credentials, net, baseUrl) {
    // The voice list is public, so the key is proven with the (free) dictionary coverage lookup.
    const { root, auth } = SPEECH_VENDORS["rime-ai"];
    const headers = auth(requireField("rime-ai", credentials, "api_key"));
    const url = withOrigin(joinUrl(root, "oov"), baseUrl);
    await vendorFetch({ provider: "rime-ai", url, method: "POST", headers, body: { text: "hello" } }, net);
    return "Connected to Rime.";
  },
};

function failureMessage(provider: string, error: unknown): string {
  const label = labelOf(provider);
  if (!(error instanceof ProviderError)) return error instanceof Error ? capitalize(error.message) : String(error);
  const detail = error.message.startsWith(`${error.provider}: `)
    ? error.message.slice(error.provider.length + 2)
    : error.message;
  if (error.status === 401 || error.status === 403) return `${label} rejected the credentials (${detail}).`;
  if (error.status === undefined && error.retryable) return `Could not reach ${label}: ${detail}.`;
  return error.status === undefined ? detail : `${label} answered with an error (${detail}).`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function capitalize(text: string): string {
  return text ? text[0]?.toUpperCase() + text.slice(1) : text;
}
