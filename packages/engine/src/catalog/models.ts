import { LLM_PROVIDERS } from "@parley/contract";
import { ANTHROPIC_VERSION } from "../llm/anthropic.ts";
import {
  ANTHROPIC_ROOT,
  AZURE_DEFAULT_API_VERSION,
  azureEndpoint,
  GEMINI_ROOT,
  isOpenAiStyleVendor,
  OPENAI_STYLE_ROOTS,
} from "../llm/vendors.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps } from "../providers/types.ts";
import { joinUrl, withOrigin } from "../providers/vendor-url.ts";
import { type Credentials, labelOf, requireField, SPEECH_VENDORS } from "./vendor-auth.ts";
import { vendorJson } from "./vendor-http.ts";
import type { DeepgramModels } from "./voices.ts";

export type ModelKind = "llm" | "stt" | "tts";

export interface ListModelsOptions {
  /** Which of the vendor's products (OpenAI, Groq and Deepgram have several); inferred when unset. */
  kind?: ModelKind;
  /** Replaces the vendor's origin, keeping its paths: for tests. */
  baseUrl?: string;
  /** Azure: the API version to ask with. */
  apiVersion?: string;
}

/** Models an OpenAI-style `/models` list holds that are not chat models. */
const NOT_CHAT = /embed|whisper|tts|transcribe|dall-e|image|moderation|davinci|babbage|guard|audio|realtime|search/i;

/** Whether `listModels` can ask this vendor for its models (others have a fixed catalog). */
export function hasModelListing(provider: string, kind: ModelKind = defaultKind(provider)): boolean {
  if (kind === "llm") return (LLM_PROVIDERS as readonly string[]).includes(provider);
  if (kind === "tts") return ["openai", "elevenlabs", "deepgram"].includes(provider);
  return ["openai", "groq", "deepgram"].includes(provider);
}

/** The model ids a vendor offers this account, fetched live. */
export async function listModels(
  provider: string,
  credentials: Credentials,
  net: NetworkDeps,
  options: ListModelsOptions = {},
): Promise<string[]> {
  const kind = options.kind ?? defaultKind(provider);
  if (!hasModelListing(provider, kind)) {
    throw new ProviderError(provider, `${labelOf(provider)} has no model list to fetch.`, false);
  }
  const ids =
    kind === "llm"
      ? await llmModels(provider, credentials, net, options)
      : await speechModels(provider, kind, credentials, net, options);
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

function defaultKind(provider: string): ModelKind {
  if ((LLM_PROVIDERS as readonly string[]).includes(provider)) return "llm";
  return ["elevenlabs", "cartesia", "playht", "rime-ai", "neuphonic"].includes(provider) ? "tts" : "stt";
}

async function llmModels(provider: string, credentials: Credentials, net: NetworkDeps, options: ListModelsOptions) {
  const url = (root: string, path: string) => withOrigin(joinUrl(root, path), options.baseUrl);
  if (isOpenAiStyleVendor(provider)) {
    const key = requireField(provider, credentials, "api_key");
    const root = OPENAI_STYLE_ROOTS[provider];
    return chatOnly(await openAiList(provider, url(root, "models"), { authorization: `Bearer ${key}` }, net));
  }
  switch (provider) {
    case "anthropic": {
      const headers = {
        "x-api-key": requireField(provider, credentials, "api_key"),
        "anthropic-version": ANTHROPIC_VERSION,
      };
      const body = await vendorJson<{ data?: { id: string }[] }>(
        { provider, url: url(ANTHROPIC_ROOT, "v1/models?limit=1000"), headers },
        net,
      );
      return (body.data ?? []).map((m) => m.id);
    }
    case "google": {
      const headers = { "x-goog-api-key": requireField(provider, credentials, "api_key") };
      const body = await vendorJson<{ models?: { name: string; supportedGenerationMethods?: string[] }[] }>(
        { provider, url: url(GEMINI_ROOT, "v1beta/models?pageSize=1000"), headers },
        net,
      );
      return (body.models ?? [])
        .filter((m) => m.supportedGenerationMethods?.includes("generateContent") ?? true)
        .map((m) => m.name.replace(/^models\//, ""));
    }
    case "azure-openai": {
      const headers = { "api-key": requireField(provider, credentials, "api_key") };
      const endpoint = azureEndpoint(requireField(provider, credentials, "endpoint"));
      const version = encodeURIComponent(options.apiVersion ?? AZURE_DEFAULT_API_VERSION);
      return chatOnly(await openAiList(provider, url(endpoint, `openai/models?api-version=${version}`), headers, net));
    }
    default: {
      const root = requireField(provider, credentials, "base_url");
      const key = credentials?.api_key?.trim();
      const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
      return openAiList(provider, url(root, "models"), headers, net);
    }
  }
}

async function speechModels(
  provider: string,
  kind: "stt" | "tts",
  credentials: Credentials,
  net: NetworkDeps,
  options: ListModelsOptions,
): Promise<string[]> {
  const url = (root: string, path: string) => withOrigin(joinUrl(root, path), options.baseUrl);
  const key = requireField(provider, credentials, "api_key");
  if (provider === "openai" || provider === "groq") {
    const { root, auth } = SPEECH_VENDORS[provider];
    const all = await openAiList(provider, url(root, "models"), auth(key), net);
    return all.filter((id) => (kind === "tts" ? /tts/i : /whisper|transcribe/i).test(id));
  }
  if (provider === "elevenlabs") {
    const { root, auth } = SPEECH_VENDORS.elevenlabs;
    const body = await vendorJson<{ model_id: string; can_do_text_to_speech?: boolean }[]>(
      { provider, url: url(root, "v1/models"), headers: auth(key) },
      net,
    );
    return body.filter((m) => m.can_do_text_to_speech !== false).map((m) => m.model_id);
  }
  const { root, auth } = SPEECH_VENDORS.deepgram;
  const body = await vendorJson<DeepgramModels>({ provider, url: url(root, "v1/models"), headers: auth(key) }, net);
  if (kind === "stt") return (body.stt ?? []).map((m) => m.canonical_name ?? m.name ?? "").filter(Boolean);
  // TTS entries are voices ("aura-2-thalia-en"); the model is the family before the voice name.
  return (body.tts ?? []).map((m) => (m.canonical_name ?? "").split("-").slice(0, -2).join("-")).filter(Boolean);
}

async function openAiList(provider: string, url: string, headers: Record<string, string>, net: NetworkDeps) {
  const body = await vendorJson<{ data?: { id: string }[] }>({ provider, url, headers }, net);
  return (body.data ?? []).map((m) => m.id);
}

function chatOnly(ids: string[]): string[] {
  return ids.filter((id) => !NOT_CHAT.test(id));
}
