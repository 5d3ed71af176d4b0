import { describe, expect, it } from "vitest";
import { saveIntegration } from "../src/modules/integrations/service.ts";
import { insertClone } from "../src/modules/voice-lab/service.ts";
import { routedNetwork, useFakeElevenLabs } from "./fake-voice-vendor.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();
const elevenLabs = useFakeElevenLabs(t);

const get = (url: string, token?: string) => call(t, "GET", url, { token });

describe("models and transcribers", () => {
  it("lists a provider's models by provider id or by one of its model ids", async () => {
    const a = await signedInUser(t);
    const byProvider = await get("/api/v1/models/anthropic", a.token);
    expect(byProvider.statusCode).toBe(200);
    expect(byProvider.json().provider).toBe("anthropic");
    expect(byProvider.json().models).toContainEqual({ value: "claude-sonnet-4-5", label: "Claude Sonnet 4.5" });
    const byModel = await get("/api/v1/models/gpt-4o-mini", a.token);
    expect(byModel.json().provider).toBe("openai");
    const voiceModels = await get("/api/v1/models/eleven_flash_v2_5", a.token);
    expect(voiceModels.json().provider).toBe("elevenlabs");
    expect((await get("/api/v1/models/no-such-thing", a.token)).statusCode).toBe(404);
  });

  it("filters /ml-models by type and provider", async () => {
    const a = await signedInUser(t);
    const all = (await get("/api/v1/ml-models", a.token)).json().models;
    expect(new Set(all.map((m: { type: string }) => m.type))).toEqual(new Set(["llm", "stt", "tts"]));
    const stt = (await get("/api/v1/ml-models?type=stt&provider=deepgram", a.token)).json().models;
    expect(stt.length).toBeGreaterThan(0);
    for (const m of stt) expect(m).toMatchObject({ type: "stt", provider: "deepgram" });
    const bad = await get("/api/v1/ml-models?type=video", a.token);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/type/);
  });

  it("describes each transcriber with the spec §9 defaults", async () => {
    const a = await signedInUser(t);
    const deepgram = (await get("/api/v1/transcribers/deepgram", a.token)).json();
    expect(deepgram.defaults).toMatchObject({ sample_rate: 16000, language: "en" });
    expect(deepgram.fields.map((f: { name: string }) => f.name)).toContain("keyterms");
    expect(deepgram.languages).toContainEqual({ value: "en", label: "English" });
    const assembly = (await get("/api/v1/transcribers/assembly-ai", a.token)).json();
    expect(assembly.defaults).toMatchObject({ end_utterance_silence_threshold: 500, encoding: "pcm_s16le" });
    const speechmatics = (await get("/api/v1/transcribers/speechmatics", a.token)).json();
    expect(speechmatics.defaults).toMatchObject({ operating_point: "enhanced", language: "auto" });
    const hamsa = (await get("/api/v1/transcribers/hamsa", a.token)).json();
    expect(hamsa.defaults.language).toBe("ar");
    const local = (await get("/api/v1/transcribers/local", a.token)).json();
    expect(local.models[0].value).toBe("pocketsphinx-en-us");
    expect((await get("/api/v1/transcribers/whisperer", a.token)).statusCode).toBe(404);
  });

  it("needs sign-in for every catalog route", async () => {
    for (const url of [
      "/api/v1/models/openai",
      "/api/v1/ml-models",
      "/api/v1/transcribers/deepgram",
      "/api/v1/voices/openai",
    ]) {
      expect((await get(url)).statusCode, url).toBe(401);
    }
  });
});

describe("voices", () => {
  it("answers the built-in list without a key, and 404 for an unknown provider", async () => {
    const a = await signedInUser(t);
    const res = await get("/api/v1/voices/openai", a.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe("builtin");
    expect(body.error).toBeUndefined();
    expect(body.voices).toContainEqual({ id: "alloy", name: "Alloy", isCustom: false });
    expect(body.models.map((m: { value: string }) => m.value)).toContain("tts-1");
    const local = (await get("/api/v1/voices/local", a.token)).json();
    expect(local.voices.map((v: { id: string }) => v.id)).toContain("en-us");
    expect((await get("/api/v1/voices/nope", a.token)).statusCode).toBe(404);
  });

  it("falls back to the built-in list with the failure text when the vendor is unreachable", async () => {
    const a = await signedInUser(t);
    await saveIntegration(t.ctx, a, "elevenlabs", { api_key: "sk-el-test" });
    t.ctx.network = elevenLabs.realNetwork;
    const res = await get("/api/v1/voices/elevenlabs", a.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.source).toBe("builtin");
    expect(body.error).toEqual(expect.any(String));
    expect(body.error.length).toBeGreaterThan(0);
    expect(body.voices).toContainEqual({ id: "21m00Tcm4TlvDq8ikWAM", name: "Rachel", isCustom: false });
  });

  it("serves the live list with a key, cached, with the workspace's clones merged in", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    await saveIntegration(t.ctx, a, "elevenlabs", { api_key: "sk-el-test" });
    await insertClone(t.ctx.db, a, {
      name: "My voice",
      description: "",
      language: "en",
      serviceName: "elevenlabs",
      serviceVoiceId: "live-voice-2",
    });
    await insertClone(t.ctx.db, b, {
      name: "Not yours",
      description: "",
      language: "en",
      serviceName: "elevenlabs",
      serviceVoiceId: "b-clone",
    });
    t.ctx.network = routedNetwork(elevenLabs.vendor.origin, elevenLabs.realNetwork);
    try {
      const body = (await get("/api/v1/voices/elevenlabs", a.token)).json();
      expect(body.source).toBe("live");
      expect(body.error).toBeUndefined();
      // The clone comes first, flagged custom, and the vendor's copy of it is not repeated.
      expect(body.voices).toEqual([
        { id: "live-voice-2", name: "My voice", isCustom: true },
        { id: "live-voice-1", name: "Live Rachel", isCustom: false },
      ]);
      expect(body.models).toEqual([{ value: "eleven_flash_v2_5", label: "Flash v2.5" }]);

      const before = elevenLabs.vendor.requests.length;
      await get("/api/v1/voices/elevenlabs", a.token);
      expect(elevenLabs.vendor.requests.length).toBe(before);
      t.clock.advance(11 * 60);
      await get("/api/v1/voices/elevenlabs", a.token);
      expect(elevenLabs.vendor.requests.length).toBeGreaterThan(before);

      // Without a key the other workspace gets the built-in list, with its own clone only.
      const other = (await get("/api/v1/voices/elevenlabs", b.token)).json();
      expect(other.source).toBe("builtin");
      expect(other.voices[0]).toEqual({ id: "b-clone", name: "Not yours", isCustom: true });
      expect(other.voices.some((v: { name: string }) => v.name === "My voice")).toBe(false);

      // Cartesia clones go to Cartesia's list only.
      const openai = (await get("/api/v1/voices/openai", a.token)).json();
      expect(openai.voices.some((v: { isCustom: boolean }) => v.isCustom)).toBe(false);
    } finally {
      t.ctx.network = elevenLabs.realNetwork;
    }
  });
});
