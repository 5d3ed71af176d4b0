import { CallLog } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signedInUser, type TestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { createLoggedTestApp, type LogLines } from "./support/logged-app.ts";
import { startReceiver } from "./support/loopback.ts";
import { APP_ORIGIN, joinCall } from "./support/realtime-calls.ts";
import { type ModelScript, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { until } from "./support/until.ts";

/**
 * Issue 34's acceptance: a caller reads out a card number and an e-mail address, and neither
 * appears in the stored transcript, the analysis prompt, the model's input, the recording, a
 * webhook or any log line (the engine's own test covers the caller's audio and spoken forms).
 */

const SAID = "My card is 4111 1111 1111 1111 and my e-mail is john at example dot com.";
const SECRETS = ["4111 1111", "4111111111111111", "john@example.com", "john at example"];

/** The model answers with the address it was given (a placeholder), and summarises for the analysis. */
const script: ModelScript = (request) => {
  const system = request.messages.find((m) => m.role === "system")?.content ?? "";
  if (system.startsWith("You analyse a finished phone call")) return { text: "The caller gave a card and an e-mail." };
  return { text: "Thanks, I will send the receipt to [EMAIL_1]." };
};

let llm: ScriptedLlm;
let t: TestApp & { log: LogLines };
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  llm = await startScriptedLlm(script);
  t = await createLoggedTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }, { level: "debug", format: "json" });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  receiver = await startReceiver((_request, res) => res.writeHead(200).end("ok"));
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
  await receiver?.close();
});

/** The two channels of a 16-bit stereo WAV as the recordings are written (44-byte header). */
function stereoChannels(wav: Buffer): [Int16Array, Int16Array] {
  const frames = (wav.length - 44) / 4;
  const left = new Int16Array(frames);
  const right = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = wav.readInt16LE(44 + 4 * i);
    right[i] = wav.readInt16LE(46 + 4 * i);
  }
  return [left, right];
}

const expectNoSecret = (what: string, text: string) => {
  for (const secret of SECRETS) expect(text, `${what} holds "${secret}"`).not.toContain(secret);
};

async function setPrivacy(token: string, body: Record<string, unknown>) {
  const retention = {
    recordings: null,
    transcripts: null,
    tool_calls: null,
    analysis: null,
    webhook_bodies: null,
    document_files: null,
  };
  const res = await call(t, "PUT", "/api/v1/privacy/settings", { token, body: { retention, ...body } });
  expect(res.statusCode, res.body).toBe(200);
}

async function endedLog(token: string, callId: string, analysed: boolean): Promise<CallLog> {
  return until(
    async () => CallLog.parse((await call(t, "GET", `/api/v1/call-logs/${callId}`, { token })).json()),
    (log) => log.status === "completed" && (!analysed || (log.analysis !== null && log.analysis.status !== "pending")),
    "the call to end",
  );
}

describe("PII redaction of a call (transcripts and model)", () => {
  it("keeps a card number and an e-mail out of the transcript, the model, the analysis, the recording, webhooks and logs", async () => {
    const owner = await signedInUser(t);
    await setPrivacy(owner.token, { zero_retention: false, pii_redaction: "transcripts_and_model" });
    const hook = await call(t, "POST", "/api/v1/webhooks", {
      token: owner.token,
      body: { url: `${receiver.origin}/hooks`, events: ["call.ended"] },
    });
    expect(hook.statusCode).toBe(201);
    const agent = await createAssistant(t, owner.token, {
      name: "Payments",
      first_speaker: "user",
      audio_recording: true,
      llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
      analysis: { summary: { enabled: true, prompt: "Say what the caller gave." } },
    });
    const { client, callId } = await joinCall(t, owner.token, agent, { origin: APP_ORIGIN });
    await client.waitFor("ready");
    client.send({ type: "text", text: SAID });
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);
    // The caller heard the address itself: the voice was given the value behind the placeholder.
    await client.until(() => client.audioPeak() > 500, "the reply's audio");
    client.send({ type: "hangup" });
    await client.closed;

    const log = await endedLog(owner.token, callId, true);
    expect(log.transcript.map((line) => line.text)).toEqual([
      "My card is [CARD_1] and my e-mail is [EMAIL_1].",
      "Thanks, I will send the receipt to [EMAIL_1].",
    ]);
    expectNoSecret("the call log", JSON.stringify(log));
    expectNoSecret("the live socket", JSON.stringify(client.messages));

    // The model's input (the call's turn and the analysis prompt) held placeholders only.
    const requests = JSON.stringify(llm.requests);
    expectNoSecret("the model's requests", requests);
    const analysisPrompt = llm.requests.find((r) =>
      r.messages.some((m) => m.content?.includes("Say what the caller gave.")),
    );
    expect(JSON.stringify(analysisPrompt?.messages)).toContain("[CARD_1]");
    expect(log.analysis).toMatchObject({ status: "done", summary: "The caller gave a card and an e-mail." });

    // The recording: the reply that said the address is silent; the caller typed (no audio).
    expect(log.has_recording).toBe(true);
    const wav = (await call(t, "GET", `/api/v1/call-logs/${callId}/recording`, { token: owner.token })).rawPayload;
    const [left, right] = stereoChannels(wav);
    expect(right.length).toBeGreaterThan(0);
    expect(left.every((s) => s === 0)).toBe(true);
    expect(right.every((s) => s === 0)).toBe(true);

    await until(
      async () => receiver.received.length,
      (n) => n >= 1,
      "the call.ended webhook",
    );
    expectNoSecret("the call.ended webhook", receiver.received.map((r) => r.body).join("\n"));
    // The log did record the call (its requests and the socket), just never what was said in it.
    expect(t.log.lines.join("")).toContain(callId);
    expectNoSecret("the server's log", t.log.lines.join(""));
  });
});
