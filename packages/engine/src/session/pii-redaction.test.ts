import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";
import { toolCall } from "../../testing/fake-providers.ts";
import { REDACTED_KEY } from "./call-events.ts";
import type { ToolRunner } from "./types.ts";

const CARD_SPOKEN = "four one one one one one one one one one one one one one one one";
const SAID = `My card is ${CARD_SPOKEN} and my e-mail is john at example dot com.`;
const CARD = "4111111111111111";
const EMAIL = "john@example.com";
const ON = { stored: true, model: true, phoneRegion: "US" };

/** Every sample of `channel` in [from, to) is zero. */
const silentOver = (channel: Int16Array | undefined, from: number, to: number) =>
  channel?.subarray(from, to).every((s) => s === 0) ?? false;

/** The range of samples where a channel is loud (speech, not the quiet tone or silence). */
function loudRange(channel: Int16Array | undefined, level: number): [number, number] {
  let first = -1;
  let last = -1;
  channel?.forEach((s, i) => {
    if (Math.abs(s) > level) {
      if (first < 0) first = i;
      last = i;
    }
  });
  return [first, last + 1];
}

describe("PII redaction", () => {
  it("keeps a card number and an e-mail out of the events, the model's input and the recording", async () => {
    const tool: ToolRunner & { args: string[] } = {
      args: [],
      tools: () => [{ name: "send_receipt", description: "Sends a receipt", parameters: { type: "object" } }],
      async run(call) {
        tool.args.push(call.arguments);
        return { ok: true, content: `Receipt sent to ${EMAIL}.` };
      },
    };
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      settings: { piiRedaction: ON },
      heard: [SAID],
      tools: tool,
      replies: [[toolCall("send_receipt", { to: "[EMAIL_1]", card: "[CARD_1]" })], "I sent it to [EMAIL_1]."],
    });
    await call.start();
    await call.say(1200, 900);
    await call.untilListening();
    await call.session.hangup("caller_hangup");
    await call.session.done;

    // What leaves the engine: placeholders only.
    const sent = JSON.stringify(call.events);
    for (const secret of [CARD, EMAIL, "john at example", "four one one one"]) expect(sent).not.toContain(secret);
    expect(call.transcript()).toEqual([
      "user: My card is [CARD_1] and my e-mail is [EMAIL_1].",
      "assistant: I sent it to [EMAIL_1].",
    ]);
    expect(call.of("tool_call")[0]).toMatchObject({ arguments: '{"to":"[EMAIL_1]","card":"[CARD_1]"}' });

    // The model read placeholders, told how to use them; the tool and the caller got the values.
    const modelInput = JSON.stringify(call.llm.requests.map((r) => r.messages));
    for (const secret of [CARD, EMAIL, "john at example", "four one one one"]) expect(modelInput).not.toContain(secret);
    expect(modelInput).toContain("My card is [CARD_1] and my e-mail is [EMAIL_1].");
    expect(call.llm.requests[0]?.messages[0]?.content).toContain("placeholders such as [EMAIL_1]");
    expect(JSON.parse(tool.args[0] ?? "{}")).toEqual({ to: EMAIL, card: CARD });
    expect(call.tts.texts.join(" ")).toContain(`I sent it to ${EMAIL}.`);

    // The recording: the caller's turn and the reply that said the address are silent.
    const [left, right] = call.recordingChannels() ?? [];
    expect(left?.length).toBeGreaterThan(0);
    expect(loudRange(left, 5000)[0]).toBe(-1);
    expect(right?.every((s) => s === 0)).toBe(true);
  });

  it("silences only the turns that held personal data", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      settings: { piiRedaction: { ...ON, model: false } },
      heard: ["Hello there.", "My e-mail is jane@example.org."],
      replies: ["Hi, how can I help?", "Thanks, noted."],
    });
    await call.start();
    await call.say(600, 900);
    await call.untilListening();
    await call.say(600, 900);
    await call.untilListening();
    await call.session.hangup("caller_hangup");
    await call.session.done;
    const [left, right] = call.recordingChannels() ?? [];
    const [loudFrom, loudTo] = loudRange(left, 5000);
    // The first turn is kept (loud), the second is silenced.
    expect(loudFrom).toBeGreaterThanOrEqual(0);
    expect(loudTo).toBeLessThan(2 * 16_000);
    expect(silentOver(left, loudTo + 16_000, left?.length ?? 0)).toBe(true);
    expect(right?.some((s) => s !== 0)).toBe(true);
    // Without model redaction the model reads what was said; the stored transcript still masks it.
    expect(JSON.stringify(call.llm.requests.at(-1)?.messages)).toContain("jane@example.org");
    expect(call.transcript()).toContain("user: My e-mail is [EMAIL_1].");
  });

  it("never lets a key pressed under PCI out of the engine", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", pci_compliant: true, dtmf_enabled: true, dtmf_mapping: {} },
    });
    await call.start();
    for (const key of "4111") call.session.pushDtmf(key);
    await call.untilListening();
    expect(call.of("dtmf_in").map((e) => e.digit)).toEqual([REDACTED_KEY, REDACTED_KEY, REDACTED_KEY, REDACTED_KEY]);
    await call.session.hangup("caller_hangup");
    expect((await call.session.done).recording).toBeNull();
  });
});
