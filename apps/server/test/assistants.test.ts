import { ASSISTANT_TEMPLATES, Assistant } from "@parley/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertQuota } from "../src/modules/admin/quotas-service.ts";
import { agents } from "../src/modules/assistants/schema.ts";
import { countAssistants, findAssistant } from "../src/modules/assistants/service.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const ZERO = "00000000-0000-4000-8000-000000000000";
type Token = { token: string };

async function create(user: Token, body: Record<string, unknown>) {
  const res = await call(t, "POST", "/api/v1/agents", { token: user.token, body });
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe("assistants", () => {
  it("creates an assistant with every spec §9 default", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/agents", { token: a.token, body: { name: "Front desk" } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: "Front desk",
      temp: false,
      max_call_duration: 180,
      max_call_duration_warning_percentage: 0.8,
      timeout_seconds: 30,
      timeout_max_attempts: 3,
      background_audio_volume: 0.5,
      call_transfer: false,
      call_transfer_type: "cold",
      stt_provider: "deepgram",
      stt_provider_config: { sample_rate: 16000, language: "en" },
      tts_provider: "openai",
      tts_provider_config: { model: "tts-1", voice: "alloy", speed: 1 },
      hippa_compliant: false,
      audio_recording: true,
    });
  });

  it("fills each transcriber's own defaults (assembly-ai, speechmatics, hamsa)", async () => {
    const a = await signedInUser(t);
    const assembly = await create(a, { name: "A", stt_provider: "assembly-ai" });
    expect(assembly.stt_provider_config).toMatchObject({ end_utterance_silence_threshold: 500, encoding: "pcm_s16le" });
    expect(assembly.stt_provider_config).not.toHaveProperty("punctuate");
    const speechmatics = await create(a, { name: "S", stt_provider: "speechmatics", stt_provider_config: {} });
    expect(speechmatics.stt_provider_config).toMatchObject({ operating_point: "enhanced", language: "auto" });
    const hamsa = await create(a, { name: "H", stt_provider: "hamsa", stt_provider_config: { detect_language: true } });
    expect(hamsa.stt_provider_config).toMatchObject({ language: "ar", detect_language: true });
  });

  it("gives a voice provider its defaults, ElevenLabs settings included", async () => {
    const a = await signedInUser(t);
    const eleven = await create(a, { name: "E", tts_provider: "elevenlabs", tts_provider_config: { settings: {} } });
    expect(eleven.tts_provider_config.settings).toEqual({
      stability: 0.5,
      similarity_boost: 0.75,
      style: 0,
      use_speaker_boost: true,
    });
    expect(eleven.tts_provider_config.sampleRate).toBe(16000);
    const cartesia = await create(a, { name: "C", tts_provider: "cartesia", llm_provider: "anthropic" });
    expect(cartesia.tts_provider_config).toMatchObject({ model: "sonic-2", sampleRate: 16000 });
    expect(cartesia.llm_provider_config.model).toBe("claude-sonnet-4-5");
  });

  it("refuses bad bodies with 422 naming the field", async () => {
    const a = await signedInUser(t);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /name/],
      [{ name: "x", max_call_duration: -5 }, /max_call_duration/],
      [{ name: "x", stt_provider: "nope" }, /stt_provider/],
      [{ name: "x", stt_provider_config: { sample_rate: "fast" } }, /stt_provider_config\.sample_rate/],
      [
        { name: "x", stt_provider: "speechmatics", stt_provider_config: { operating_point: "turbo" } },
        /stt_provider_config\.operating_point/,
      ],
      [
        { name: "x", tts_provider: "elevenlabs", tts_provider_config: { settings: { stability: 3 } } },
        /tts_provider_config\.settings\.stability/,
      ],
      [{ name: "x", dtmf_mapping: { x: "sales" } }, /dtmf_mapping/],
    ];
    for (const [body, field] of cases) {
      const res = await call(t, "POST", "/api/v1/agents", { token: a.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail).toMatch(field);
    }
    const made = await create(a, { name: "ok" });
    const bad = await call(t, "PATCH", `/api/v1/agents/${made.id}`, { token: a.token, body: { timeout_seconds: 0 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/timeout_seconds/);
  });

  it("forces audio recording off for HIPAA assistants on create and update", async () => {
    const a = await signedInUser(t);
    const hipaa = await create(a, { name: "Clinic", hippa_compliant: true, audio_recording: true });
    expect(hipaa.audio_recording).toBe(false);
    const plain = await create(a, { name: "Shop" });
    expect(plain.audio_recording).toBe(true);
    const patched = await call(t, "PATCH", `/api/v1/agents/${plain.id}`, {
      token: a.token,
      body: { hippa_compliant: true },
    });
    expect(patched.json().audio_recording).toBe(false);
    const again = await call(t, "PATCH", `/api/v1/agents/${plain.id}`, {
      token: a.token,
      body: { audio_recording: true },
    });
    expect(again.json().audio_recording).toBe(false);
  });

  it("lists newest first, hides temporary assistants and searches by name", async () => {
    const a = await signedInUser(t);
    const empty = await call(t, "GET", "/api/v1/agents", { token: a.token });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    await create(a, { name: "Billing helper" });
    await create(a, { name: "Sales 100%" });
    await create(a, { name: "Scratch", temp: true });
    const list = (await call(t, "GET", "/api/v1/agents", { token: a.token })).json();
    expect(list.map((x: { name: string }) => x.name)).toEqual(["Sales 100%", "Billing helper"]);
    const found = (await call(t, "GET", "/api/v1/agents?search=bill", { token: a.token })).json();
    expect(found.map((x: { name: string }) => x.name)).toEqual(["Billing helper"]);
    const literal = (await call(t, "GET", "/api/v1/agents?search=%25", { token: a.token })).json();
    expect(literal.map((x: { name: string }) => x.name)).toEqual(["Sales 100%"]);
    expect(await countAssistants(t.ctx.db, a)).toBe(2);
  });

  it("lists every assistant exactly as GET /agents/{id} reads it, also one saved before a field existed", async () => {
    const a = await signedInUser(t);
    await create(a, { name: "Desk", stt_provider_config: { language: "fr" }, max_call_duration: 240 });
    const old = await create(a, { name: "Older" });
    // A config saved before `background_audio_volume` existed: both reads fill the default in.
    const [row] = await t.ctx.db.select().from(agents).where(eq(agents.id, old.id));
    const { background_audio_volume: _dropped, ...config } = row?.config ?? {};
    await t.ctx.db
      .update(agents)
      .set({ config: config as typeof agents.$inferInsert.config })
      .where(eq(agents.id, old.id));
    const res = await call(t, "GET", "/api/v1/agents", { token: a.token });
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    const list = Assistant.array().parse(res.json());
    expect(list).toHaveLength(2);
    for (const item of res.json() as Assistant[]) {
      const one = (await call(t, "GET", `/api/v1/agents/${item.id}`, { token: a.token })).json();
      expect(item).toEqual(one);
    }
    expect(list.find((x) => x.id === old.id)?.background_audio_volume).toBe(0.5);
  });

  it("reads, updates and deletes one assistant", async () => {
    const a = await signedInUser(t);
    const made = await create(a, { name: "Desk", stt_provider_config: { language: "fr" } });
    const got = await call(t, "GET", `/api/v1/agents/${made.id}`, { token: a.token });
    expect(got.statusCode).toBe(200);
    expect(got.json().stt_provider_config.language).toBe("fr");

    const patched = await call(t, "PATCH", `/api/v1/agents/${made.id}`, {
      token: a.token,
      body: {
        name: "Desk 2",
        stt_provider_config: { punctuate: false },
        transfer_config: { Sales: { number: "+15551234567" } },
      },
    });
    expect(patched.statusCode).toBe(200);
    const body = patched.json();
    expect(body.name).toBe("Desk 2");
    // Same provider: the stored config is kept and the sent fields laid over it.
    expect(body.stt_provider_config).toMatchObject({ language: "fr", punctuate: false, sample_rate: 16000 });
    expect(body.transfer_config).toEqual([{ name: "Sales", number: "+15551234567", transfer_message: "" }]);
    expect(body.max_call_duration).toBe(180);

    // A provider change starts from the new provider's defaults.
    const switched = await call(t, "PATCH", `/api/v1/agents/${made.id}`, {
      token: a.token,
      body: { stt_provider: "speechmatics", tts_provider: "deepgram" },
    });
    expect(switched.json().stt_provider_config).toEqual({
      model: "realtime",
      language: "auto",
      detect_language: false,
      operating_point: "enhanced",
      additional_vocab: [],
    });
    expect(switched.json().tts_provider_config).toMatchObject({ model: "aura-2", voice: "aura-2-thalia-en" });

    const found = await findAssistant(t.ctx.db, a, made.id);
    expect(found?.name).toBe("Desk 2");

    const deleted = await call(t, "DELETE", `/api/v1/agents/${made.id}`, { token: a.token });
    expect(deleted.statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/agents/${made.id}`, { token: a.token })).statusCode).toBe(404);
    expect((await call(t, "DELETE", `/api/v1/agents/${made.id}`, { token: a.token })).statusCode).toBe(404);
  });

  it("keeps other workspaces' assistants invisible (404) and needs sign-in (401)", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const made = await create(a, { name: "Private" });
    for (const [method, url, body] of [
      ["GET", `/api/v1/agents/${made.id}`, undefined],
      ["PATCH", `/api/v1/agents/${made.id}`, { name: "mine" }],
      ["DELETE", `/api/v1/agents/${made.id}`, undefined],
      ["GET", `/api/v1/agents/${ZERO}`, undefined],
    ] as const) {
      const res = await call(t, method, url, { token: b.token, body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call(t, "GET", "/api/v1/agents", { token: b.token })).json()).toEqual([]);
    for (const [method, url] of [
      ["GET", "/api/v1/agents"],
      ["POST", "/api/v1/agents"],
      ["GET", `/api/v1/agents/${made.id}`],
      ["PATCH", `/api/v1/agents/${made.id}`],
      ["DELETE", `/api/v1/agents/${made.id}`],
      ["GET", "/api/v1/agents/templates"],
      ["POST", "/api/v1/agents/calculate-cost-per-minute"],
    ] as const) {
      expect(
        (await call(t, method, url, { body: method === "GET" || method === "DELETE" ? undefined : {} })).statusCode,
      ).toBe(401);
    }
    expect((await call(t, "GET", "/api/v1/agents/not-a-uuid", { token: a.token })).statusCode).toBe(422);
  });

  it("enforces the assistant quota with 403", async () => {
    const a = await signedInUser(t);
    await upsertQuota(
      t.ctx.db,
      a.user.id,
      { max_assistants: 1, minutes_per_month: 100, concurrent_calls: 5, max_workspaces: 3 },
      t.ctx.now(),
    );
    await create(a, { name: "One" });
    const res = await call(t, "POST", "/api/v1/agents", { token: a.token, body: { name: "Two" } });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/maximum number of assistants/);
  });

  it("offers templates that create working assistants", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "GET", "/api/v1/agents/templates", { token: a.token });
    expect(res.statusCode).toBe(200);
    const templates = res.json();
    expect(templates.length).toBe(ASSISTANT_TEMPLATES.length);
    for (const template of templates) {
      const made = await create(a, template.assistant);
      expect(made.name).toBe(template.assistant.name);
      expect(made.system_prompt).toBe(template.assistant.system_prompt);
    }
  });

  it("estimates the cost per minute, parts summing to the total", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/agents/calculate-cost-per-minute", {
      token: a.token,
      body: { llm_provider: "openai", llm_provider_config: { model: "gpt-4o" }, tts_provider: "elevenlabs" },
    });
    expect(res.statusCode).toBe(200);
    const cost = res.json();
    const parts = cost.breakdown;
    expect(cost.total).toBeCloseTo(parts.stt + parts.llm + parts.tts + parts.telephony + parts.platform, 6);
    expect(cost.total).toBeGreaterThan(0);
    const local = await call(t, "POST", "/api/v1/agents/calculate-cost-per-minute", {
      token: a.token,
      body: { llm_provider: "openai-compatible", stt_provider: "local", tts_provider: "local" },
    });
    expect(local.json().total).toBe(0);
    const bad = await call(t, "POST", "/api/v1/agents/calculate-cost-per-minute", {
      token: a.token,
      body: { tts_provider: "nope" },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/tts_provider/);
  });
});
