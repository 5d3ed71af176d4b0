import { TTS_DEFAULT_CONFIG, TTS_PREVIEW_TEXT, type TtsAudioBody, type TtsProviderConfig } from "@parley/contract";
import { concatPcm, createProvider, ENGINE_SAMPLE_RATE, encodeWav, resample } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { resolveCredentials } from "../integrations/credentials.ts";

export interface PreviewAudio {
  wav: Buffer;
  durationSeconds: number;
}

/** A preview is a sentence or two: past this the provider is considered stuck. */
const PREVIEW_TIMEOUT_MS = 30_000;

function previewConfig(body: TtsAudioBody): TtsProviderConfig {
  const defaults = TTS_DEFAULT_CONFIG[body.provider];
  return {
    ...defaults,
    model: body.model,
    voice: body.voice,
    speed: body.speed ?? defaults.speed,
    language: body.language ?? defaults.language,
    settings: body.settings ? { ...(defaults.settings ?? {}), ...body.settings } : defaults.settings,
    sampleRate: ENGINE_SAMPLE_RATE,
  };
}

/**
 * Synthesizes a preview sentence with the workspace's credentials for the provider and returns
 * it as a 16 kHz mono WAV. Provider failures are thrown as they come (the route answers 409 for a
 * missing key, 502 for the rest).
 */
export async function synthesizePreview(
  ctx: AppContext,
  tenant: TenantScope,
  body: TtsAudioBody,
): Promise<PreviewAudio> {
  // A key-free provider has no stored or environment credentials: it gets null, which it ignores.
  const credentials = await resolveCredentials(ctx, tenant.workspaceId, body.provider);
  const tts = await createProvider("tts", body.provider, {
    credentials,
    config: previewConfig(body),
    net: ctx.network,
  });
  const pieces: Int16Array[] = [];
  let rate = ENGINE_SAMPLE_RATE;
  const signal = AbortSignal.timeout(PREVIEW_TIMEOUT_MS);
  for await (const chunk of tts.synthesize(body.text ?? TTS_PREVIEW_TEXT, { signal })) {
    // One stream speaks at one rate; resampling the whole, not each chunk, keeps the seams clean.
    rate = chunk.sampleRate;
    pieces.push(chunk.pcm);
  }
  const joined = concatPcm(pieces);
  const samples = rate === ENGINE_SAMPLE_RATE ? joined : resample(joined, rate, ENGINE_SAMPLE_RATE);
  return {
    wav: encodeWav({ sampleRate: ENGINE_SAMPLE_RATE, channels: [samples] }),
    durationSeconds: samples.length / ENGINE_SAMPLE_RATE,
  };
}
