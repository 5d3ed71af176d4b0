import { describe, expect, it } from "vitest";
import { type RecordedRequest, sendJson } from "../../testing/llm-servers/mock-server.ts";
import { mockServersPerTest } from "../../testing/llm-servers/mock-servers-per-test.ts";
import { createVoiceClone, deleteVoiceClone } from "./catalog.ts";

const net = { fetch };
const startServer = mockServersPerTest();

/** Parses the multipart body the vendor received, the way a real server would. */
function formOf(request: RecordedRequest): Promise<FormData> {
  return new Request("http://vendor.test/", {
    method: "POST",
    headers: { "content-type": String(request.headers["content-type"]) },
    body: new Uint8Array(request.body),
  }).formData();
}

const sample = (name: string, bytes: number[]) => ({
  filename: name,
  contentType: "audio/wav",
  data: Buffer.from(bytes),
});

describe("createVoiceClone", () => {
  it("uploads every sample to ElevenLabs /v1/voices/add as multipart files", async () => {
    const server = await startServer({
      "POST /v1/voices/add": (_req, res) =>
        sendJson(res, 200, { voice_id: "cloned-123", requires_verification: false }),
    });
    const result = await createVoiceClone(
      "elevenlabs",
      { api_key: "xi" },
      { name: "Dana", description: "Warm", language: "en", files: [sample("a.wav", [1, 2, 3]), sample("b.wav", [4])] },
      net,
      { baseUrl: server.url },
    );
    expect(result).toEqual({ serviceVoiceId: "cloned-123" });
    const request = server.requests[0] as RecordedRequest;
    expect(request.headers["xi-api-key"]).toBe("xi");
    expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    const form = await formOf(request);
    expect(form.get("name")).toBe("Dana");
    expect(form.get("description")).toBe("Warm");
    expect(JSON.parse(String(form.get("labels")))).toEqual({ language: "en" });
    const files = form.getAll("files") as File[];
    expect(files.map((f) => f.name)).toEqual(["a.wav", "b.wav"]);
    expect(files[0]?.type).toBe("audio/wav");
    expect([...new Uint8Array(await (files[0] as File).arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("sends Cartesia one clip with name, description and language to /voices/clone", async () => {
    const server = await startServer({
      "POST /voices/clone": (_req, res) => sendJson(res, 200, { id: "cart-voice-9", name: "Dana" }),
    });
    const result = await createVoiceClone(
      "cartesia",
      { api_key: "sk_car" },
      { name: "Dana", description: "Warm", language: "fr", files: [sample("clip.wav", [9, 9])] },
      net,
      { baseUrl: server.url },
    );
    expect(result).toEqual({ serviceVoiceId: "cart-voice-9" });
    const request = server.requests[0] as RecordedRequest;
    expect(request.headers["cartesia-version"]).toBe("2025-04-16");
    const form = await formOf(request);
    expect(form.get("name")).toBe("Dana");
    expect(form.get("language")).toBe("fr");
    expect((form.get("clip") as File).name).toBe("clip.wav");
  });

  it("refuses a clone without samples before calling the vendor", async () => {
    await expect(
      createVoiceClone(
        "cartesia",
        { api_key: "k" },
        { name: "x", files: [] },
        { fetch: () => Promise.reject(new Error("no")) },
      ),
    ).rejects.toMatchObject({ retryable: false, message: expect.stringContaining("at least one audio sample") });
  });
});

describe("deleteVoiceClone", () => {
  it("deletes at the vendor and treats an already-deleted voice as done", async () => {
    const server = await startServer({
      "DELETE /v1/voices/cloned-123": (_req, res) => sendJson(res, 200, { status: "ok" }),
      "DELETE /voices/gone": (_req, res) => sendJson(res, 404, { error: "Voice not found" }),
    });
    await deleteVoiceClone("elevenlabs", { api_key: "xi" }, "cloned-123", net, { baseUrl: server.url });
    await deleteVoiceClone("cartesia", { api_key: "k" }, "gone", net, { baseUrl: server.url });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "DELETE /v1/voices/cloned-123",
      "DELETE /voices/gone",
    ]);
  });
});
