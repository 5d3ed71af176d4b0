import { describe, expect, it } from "vitest";
import { saveIntegration } from "../src/modules/integrations/service.ts";
import { routedNetwork, useFakeElevenLabs } from "./fake-voice-vendor.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();
const elevenLabs = useFakeElevenLabs(t);

const ZERO = "00000000-0000-4000-8000-000000000000";

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body built by hand, as a browser's FormData would send it. */
function multipart(parts: Part[]) {
  const boundary = "----parley-test-boundary";
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ""}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ""}\r\n`;
    chunks.push(
      Buffer.from(head),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const audio = (n: number, bytes = 2048): Part => ({
  name: "files",
  value: Buffer.alloc(bytes, n),
  filename: `sample-${n}.wav`,
  type: "audio/wav",
});

function postClone(token: string | undefined, parts: Part[]) {
  const body = multipart(parts);
  return t.app.inject({
    method: "POST",
    url: "/api/v1/clones",
    headers: { "content-type": body.contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: body.payload,
  });
}

const fields = (extra: Partial<Record<string, string>> = {}): Part[] =>
  Object.entries({ name: "My voice", description: "Warm", language: "en", service_name: "elevenlabs", ...extra }).map(
    ([name, value]) => ({ name, value: value ?? "" }),
  );

async function withVendorKey() {
  const a = await signedInUser(t);
  await saveIntegration(t.ctx, a, "elevenlabs", { api_key: "sk-el-test" });
  t.ctx.network = routedNetwork(elevenLabs.vendor.origin, elevenLabs.realNetwork);
  return a;
}

describe("voice clones", () => {
  it("clones at the vendor, lists, merges into the voice list and deletes", async () => {
    const a = await withVendorKey();
    expect((await call(t, "GET", "/api/v1/clones", { token: a.token })).json()).toEqual([]);
    const res = await postClone(a.token, [...fields(), audio(1), audio(2)]);
    expect(res.statusCode, res.body).toBe(201);
    const clone = res.json();
    expect(clone).toMatchObject({
      name: "My voice",
      description: "Warm",
      language: "en",
      is_public: false,
      service_name: "elevenlabs",
      service_voice_id: expect.stringMatching(/^clone-/),
    });
    const upload = elevenLabs.vendor.requests.filter((r) => r.line === "POST /v1/voices/add").at(-1);
    expect(upload?.body).toContain('filename="sample-2.wav"');

    const list = (await call(t, "GET", "/api/v1/clones", { token: a.token })).json();
    expect(list).toEqual([clone]);
    const voices = (await call(t, "GET", "/api/v1/voices/elevenlabs", { token: a.token })).json();
    expect(voices.voices[0]).toEqual({ id: clone.service_voice_id, name: "My voice", isCustom: true });

    const deleted = await call(t, "DELETE", `/api/v1/clones/${clone.id}`, { token: a.token });
    expect(deleted.statusCode).toBe(200);
    expect(elevenLabs.vendor.requests.at(-1)?.line).toBe(`DELETE /v1/voices/${clone.service_voice_id}`);
    expect((await call(t, "GET", "/api/v1/clones", { token: a.token })).json()).toEqual([]);
  });

  it("removes the row even when the vendor has already forgotten the voice", async () => {
    const a = await withVendorKey();
    const clone = (await postClone(a.token, [...fields(), audio(1)])).json();
    elevenLabs.vendor.forgotten.add(clone.service_voice_id);
    expect((await call(t, "DELETE", `/api/v1/clones/${clone.id}`, { token: a.token })).statusCode).toBe(200);
    expect((await call(t, "GET", "/api/v1/clones", { token: a.token })).json()).toEqual([]);
  });

  it("saves nothing when the vendor refuses, and says why", async () => {
    const a = await withVendorKey();
    elevenLabs.vendor.failCloneWith = { status: 400, message: "Audio too short" };
    const res = await postClone(a.token, [...fields(), audio(1)]);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/ElevenLabs could not create the voice clone.*Audio too short/);
    expect((await call(t, "GET", "/api/v1/clones", { token: a.token })).json()).toEqual([]);
  });

  it("refuses a clone without the vendor's key before reading its audio", async () => {
    const a = await signedInUser(t);
    // Past the 10 MB limit: had the file been read first, the answer would be 413.
    const res = await postClone(a.token, [...fields({ service_name: "cartesia" }), audio(1, 10 * 1024 * 1024 + 1)]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: "No API key for Cartesia. Add one on the Integrations page." });
  });

  it("needs a vendor key", async () => {
    const a = await signedInUser(t);
    const res = await postClone(a.token, [...fields({ service_name: "cartesia" }), audio(1)]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: "No API key for Cartesia. Add one on the Integrations page.",
    });
  });

  it("validates the upload: fields, file count, size and type", async () => {
    const a = await withVendorKey();
    const cases: [Part[], number, RegExp][] = [
      [[...fields({ name: "" }), audio(1)], 422, /Name is required \(name\)/],
      [[...fields({ service_name: "playht" }), audio(1)], 422, /Service name must be one of: .*\(service_name\)/],
      [fields(), 422, /between 1 and 5 audio files/],
      [[...fields(), audio(1), audio(2), audio(3), audio(4), audio(5), audio(6)], 422, /between 1 and 5 audio files/],
      [[...fields(), audio(1, 10 * 1024 * 1024 + 1)], 413, /10 MB or smaller/],
      [
        [...fields(), { name: "files", value: "hello", filename: "notes.txt", type: "text/plain" }],
        422,
        /not an audio file/,
      ],
    ];
    for (const [parts, status, detail] of cases) {
      const res = await postClone(a.token, parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().detail).toMatch(detail);
    }
    const json = await call(t, "POST", "/api/v1/clones", { token: a.token, body: { name: "x" } });
    expect(json.statusCode).toBe(415);
    expect((await call(t, "GET", "/api/v1/clones", { token: a.token })).json()).toEqual([]);
  });

  it("keeps clones per workspace (404) and needs sign-in (401)", async () => {
    const a = await withVendorKey();
    const b = await signedInUser(t);
    const clone = (await postClone(a.token, [...fields(), audio(1)])).json();
    expect((await call(t, "GET", "/api/v1/clones", { token: b.token })).json()).toEqual([]);
    expect((await call(t, "DELETE", `/api/v1/clones/${clone.id}`, { token: b.token })).statusCode).toBe(404);
    expect((await call(t, "DELETE", `/api/v1/clones/${ZERO}`, { token: a.token })).statusCode).toBe(404);
    expect((await call(t, "GET", "/api/v1/clones")).statusCode).toBe(401);
    expect((await postClone(undefined, [...fields(), audio(1)])).statusCode).toBe(401);
    expect((await call(t, "DELETE", `/api/v1/clones/${clone.id}`)).statusCode).toBe(401);
    expect((await call(t, "GET", "/api/v1/clones", { token: a.token })).json()).toHaveLength(1);
  });
});

/** Peak absolute sample of a 16-bit mono WAV body (after its 44-byte header). */
function peak(wav: Buffer): number {
  let max = 0;
  for (let i = 44; i + 1 < wav.length; i += 2) max = Math.max(max, Math.abs(wav.readInt16LE(i)));
  return max;
}

describe("voice preview", () => {
  const body = (workspaceId: string, extra: Record<string, unknown> = {}) => ({
    provider: "local",
    model: "espeak-ng",
    voice: "en-us",
    workspace_id: workspaceId,
    ...extra,
  });

  it("synthesizes with the offline voice: a 16 kHz mono WAV with the x-* headers", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/tts/audio", { token: a.token, body: body(a.workspaceId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^audio\/wav/);
    expect(res.headers["x-provider"]).toBe("local");
    expect(res.headers["x-model"]).toBe("espeak-ng");
    expect(res.headers["x-voice"]).toBe("en-us");
    expect(String(res.headers["access-control-expose-headers"])).toMatch(/x-duration/);
    const wav = res.rawPayload;
    expect(wav.toString("ascii", 0, 4)).toBe("RIFF");
    expect(wav.readUInt16LE(22)).toBe(1);
    expect(wav.readUInt32LE(24)).toBe(16000);
    const duration = Number(res.headers["x-duration"]);
    expect(duration).toBeGreaterThan(0.5);
    expect(duration).toBeCloseTo((wav.length - 44) / 2 / 16000, 2);
    expect(peak(wav)).toBeGreaterThan(1000);
  });

  it("speaks the given text, longer text taking longer", async () => {
    const a = await signedInUser(t);
    const short = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { text: "Hi." }),
    });
    const long = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { text: "This sentence is a good deal longer than the first one was." }),
    });
    expect(Number(long.headers["x-duration"])).toBeGreaterThan(Number(short.headers["x-duration"]));
  });

  it("answers 409 naming the missing key and where to add it, before asking the provider", async () => {
    const a = await signedInUser(t);
    let asked = 0;
    const counting = async () => {
      asked += 1;
      return new Response(null, { status: 500 });
    };
    t.ctx.network = { ...elevenLabs.realNetwork, fetch: counting };
    const res = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { provider: "cartesia", model: "sonic-2", voice: "x" }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      detail: "No API key for Cartesia. Add one on the Integrations page.",
    });
    const playht = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { provider: "playht", model: "Play3.0-mini", voice: "x" }),
    });
    expect(playht.json()).toEqual({
      detail: "No API key for PlayHT. Add one on the Integrations page.",
    });
    expect(asked).toBe(0);
  });

  it("answers 502 with the provider's message when the provider fails", async () => {
    const a = await signedInUser(t);
    await saveIntegration(t.ctx, a, "openai", { api_key: "sk-rejected-key-0123456789" });
    t.ctx.network = {
      ...elevenLabs.realNetwork,
      fetch: async () => Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 }),
    };
    const res = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { provider: "openai", model: "tts-1", voice: "alloy" }),
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toMatch(/OpenAI/);
  });

  it("needs the caller's own workspace, a valid body and sign-in", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const other = await call(t, "POST", "/api/v1/tts/audio", { token: a.token, body: body(b.workspaceId) });
    expect(other.statusCode).toBe(404);
    const bad = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { provider: "nope" }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/provider/);
    const noVoice = await call(t, "POST", "/api/v1/tts/audio", {
      token: a.token,
      body: body(a.workspaceId, { voice: "" }),
    });
    expect(noVoice.statusCode).toBe(422);
    expect(noVoice.json().detail).toMatch(/voice/);
    expect((await call(t, "POST", "/api/v1/tts/audio", { body: body(a.workspaceId) })).statusCode).toBe(401);
  });
});
