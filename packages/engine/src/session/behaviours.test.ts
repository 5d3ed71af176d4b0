import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";
import { toolCall } from "../../testing/fake-providers.ts";
import { sine } from "../../testing/signals.ts";

describe("barge-in", () => {
  it("stops the assistant within a frame, aborts the reply and keeps only the words heard", async () => {
    const call = new CallHarness({
      // The answer to the barge-in waits half a second, so the frames after the cut stay silent.
      assistant: { first_speaker: "user", interruption_sensitivity: "high", end_of_turn_punctuation_ms: 500 },
      heard: ["Tell me a story.", "Wait, stop."],
      replies: ["One two three four. Five six seven eight. Nine ten eleven twelve."],
      msPerWord: 100,
    });
    await call.start();
    await call.say(400, 600);
    await call.clock.until(() => call.speaking());
    // 600 ms of speech: all of sentence one (400 ms) and half of sentence two.
    await call.wait(500);
    const framesBefore = call.audio.length;
    await call.say(300, 600);
    const [interruption] = call.of("interruption");
    expect(interruption).toBeDefined();
    // The caller's 100 ms (high sensitivity) of speech are the detection time; audio stops on the next frame.
    const afterBargeIn = call.audio.slice(framesBefore + 6);
    expect(afterBargeIn.slice(0, 20).every((f) => f.every((s) => s === 0))).toBe(true);
    expect(interruption?.heardText).toMatch(/^One two three four\. Five six( seven)?$/);
    await call.untilListening();
    const history = call.llm.requests[1]?.messages ?? [];
    expect(history.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(history[2]).toMatchObject({ role: "assistant", content: interruption?.heardText });
    expect(call.transcript()).toContain(`assistant: ${interruption?.heardText}`);
    await call.session.hangup("caller_hangup");
  });

  it("cuts a reply that is still streaming from the model", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", interruption_sensitivity: "high" },
      heard: ["Hi.", "Hold on."],
      replies: ["Alpha beta. Gamma delta. Epsilon zeta. Eta theta. Iota kappa."],
      llmTokenDelayMs: 150,
    });
    await call.start();
    await call.say(300, 600);
    await call.clock.until(() => call.speaking());
    await call.say(300, 600);
    expect(call.llm.aborted).toBe(1);
    expect(call.of("interruption")).toHaveLength(1);
    await call.session.hangup("caller_hangup");
  });
});

describe("silence timeout", () => {
  it("prompts after timeout_seconds, up to timeout_max_attempts times, then hangs up", async () => {
    const call = new CallHarness({
      assistant: {
        first_speaker: "user",
        timeout_seconds: 5,
        timeout_max_attempts: 2,
        timeout_message: "Are you there?",
        end_call_goodbye_message: "Goodbye.",
      },
    });
    await call.start();
    await call.wait(4900);
    expect(call.tts.texts).toEqual([]);
    await call.wait(200);
    expect(call.tts.texts).toEqual(["Are you there?"]);
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("silence_timeout");
    expect(call.tts.texts).toEqual(["Are you there?", "Are you there?", "Goodbye."]);
    // Three silences of 5 s plus the prompts (300 ms each) and the goodbye (100 ms), to a frame.
    expect(summary.durationMs).toBeGreaterThanOrEqual(15_600);
    expect(summary.durationMs).toBeLessThan(16_500);
  });

  it("starts counting again when the caller answers", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", timeout_seconds: 5, timeout_max_attempts: 1, timeout_message: "Hello?" },
      heard: ["Yes, I am here."],
      replies: ["Great."],
    });
    await call.start();
    await call.wait(5200);
    expect(call.tts.texts).toEqual(["Hello?"]);
    await call.say();
    await call.untilListening();
    await call.wait(4000);
    expect(call.summary).toBeNull();
    await call.wait(1500);
    expect(call.tts.texts).toEqual(["Hello?", "Great.", "Hello?"]);
    await call.session.hangup("caller_hangup");
  });
});

describe("maximum call duration", () => {
  it("warns at the warning percentage and ends at the limit", async () => {
    const call = new CallHarness({
      assistant: {
        first_speaker: "user",
        max_call_duration: 60,
        max_call_duration_warning_percentage: 0.8,
        max_call_duration_warning_message: "We have about a minute left.",
        timeout_seconds: 600,
      },
    });
    await call.start();
    await call.wait(47_900);
    expect(call.tts.texts).toEqual([]);
    await call.wait(200);
    expect(call.tts.texts).toEqual(["We have about a minute left."]);
    expect(call.llm.requests).toHaveLength(0);
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("max_duration");
    expect(summary.durationMs).toBe(60_000);
  });
});

describe("DTMF", () => {
  it("turns mapped and unmapped keys into caller turns", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", dtmf_enabled: true, dtmf_mapping: { "1": "I want to talk about billing" } },
      replies: ["Billing, sure.", "Noted."],
    });
    await call.start();
    call.session.pushDtmf("1");
    await call.untilListening();
    call.session.pushDtmf("7");
    await call.untilListening();
    const users = call.llm.requests.map((r) => r.messages.at(-1));
    expect(users[0]).toEqual({ role: "user", content: "I want to talk about billing" });
    expect(users[1]).toEqual({ role: "user", content: "The caller pressed 7" });
    expect(call.of("dtmf_in").map((e) => e.digit)).toEqual(["1", "7"]);
    await call.session.hangup("caller_hangup");
  });

  it("ignores keys when DTMF is off", async () => {
    const call = new CallHarness({ assistant: { first_speaker: "user" } });
    await call.start();
    call.session.pushDtmf("5");
    await call.wait(500);
    expect(call.llm.requests).toHaveLength(0);
    expect(call.of("dtmf_in")).toHaveLength(1);
    await call.session.hangup("caller_hangup");
  });
});

describe("end-call phrases", () => {
  it("says goodbye and ends when the caller says one", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", end_call_phrases: ["talk to you later"], end_call_goodbye_message: "Bye!" },
      heard: ["Okay, talk to you later."],
    });
    await call.start();
    await call.say();
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("end_phrase");
    expect(call.tts.texts).toEqual(["Bye!"]);
    expect(call.llm.requests).toHaveLength(0);
  });

  it("ends after the assistant says one", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", end_call_phrases: ["have a nice day"], end_call_goodbye_message: "Goodbye." },
      replies: ["You are all set. Have a nice day!"],
    });
    await call.start();
    call.session.pushText("Thanks!");
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("end_phrase");
    expect(call.tts.texts).toEqual(["You are all set.", "Have a nice day!", "Goodbye."]);
  });
});

describe("transfer", () => {
  it("says the transfer message, emits the transfer and ends as transferred", async () => {
    const call = new CallHarness({
      assistant: {
        first_speaker: "user",
        call_transfer: true,
        transfer_config: [
          { name: "Sales", number: "+15551234567", transfer_message: "Connecting you to sales." },
          { name: "Support", number: "+15557654321", transfer_message: "" },
        ],
      },
      replies: [[toolCall("transfer_call", { destination: "Sales" })]],
    });
    await call.start();
    call.session.pushText("I want to buy something.");
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("transferred");
    expect(call.tts.texts).toEqual(["Connecting you to sales."]);
    expect(call.of("transfer")[0]?.destination).toEqual({ name: "Sales", number: "+15551234567" });
    const types = call.events.map((e) => e.type);
    expect(types.indexOf("transfer")).toBeLessThan(types.indexOf("end"));
    const spec = call.llm.requests[0]?.tools?.find((t) => t.name === "transfer_call");
    expect(spec?.parameters).toMatchObject({ properties: { destination: { enum: ["Sales", "Support"] } } });
  });
});

describe("voicemail detection", () => {
  it("hangs up on a greeting phrase with the hangup handler", async () => {
    const call = new CallHarness({
      assistant: { voicemail_detection: true, voicemail_detection_handler: "hangup", first_speaker: "user" },
      heard: ["Hi, you've reached Sam. I'm not available, please leave a message after the tone."],
    });
    await call.start();
    await call.say(1500);
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("voicemail");
    expect(call.llm.requests).toHaveLength(0);
  });

  it("hangs up on a synthetic 1 kHz beep", async () => {
    const call = new CallHarness({
      assistant: { voicemail_detection: true, voicemail_detection_handler: "hangup", first_speaker: "user" },
    });
    await call.start();
    await call.feed(sine(1000, 400, 16_000, 0.3));
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("voicemail");
  });

  it("leaves the message after the beep with the leave_message handler", async () => {
    const call = new CallHarness({
      assistant: {
        voicemail_detection: true,
        voicemail_detection_handler: "leave_message",
        voicemail_message: "Please call us back at your convenience.",
      },
      heard: ["The person you are calling is not available. Record your message after the tone."],
    });
    await call.start(); // the assistant greets first; the machine talks over it
    await call.say(1500, 900);
    expect(call.tts.texts).toEqual(["Hi there."]);
    await call.feed(sine(1000, 500, 16_000, 0.3));
    expect(call.tts.texts).toEqual(["Hi there."]);
    await call.feed(new Int16Array(320 * 3));
    expect(call.tts.texts).toEqual(["Hi there.", "Please call us back at your convenience."]);
    const summary = await call.untilEnded();
    expect(summary.reason).toBe("voicemail");
    expect(call.llm.requests).toHaveLength(0);
  });

  it("is off unless enabled", async () => {
    const call = new CallHarness({ assistant: { first_speaker: "user" }, heard: ["Please leave a message."] });
    await call.start();
    await call.say();
    await call.untilListening();
    expect(call.llm.requests).toHaveLength(1);
    await call.session.hangup("caller_hangup");
  });
});

describe("PCI", () => {
  it("redacts card numbers in transcripts sent to the sink", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", pci_compliant: true },
      heard: ["My card is 4111 1111 1111 1111."],
      replies: ["I have 4111-1111-1111-1111 on file."],
    });
    await call.start();
    await call.say();
    await call.untilListening();
    expect(call.transcript()).toEqual([
      "user: My card is [REDACTED CARD].",
      "assistant: I have [REDACTED CARD] on file.",
    ]);
    await call.session.hangup("caller_hangup");
    expect((await call.session.done).recording).toBeNull();
  });

  it("leaves transcripts alone without PCI", async () => {
    const call = new CallHarness({ assistant: { first_speaker: "user" } });
    await call.start();
    call.session.pushText("4111 1111 1111 1111");
    expect(call.transcript()).toEqual(["user: 4111 1111 1111 1111"]);
    await call.session.hangup("caller_hangup");
  });
});

describe("recording", () => {
  it("records caller left and assistant right", async () => {
    const call = new CallHarness({ heard: ["Hello."], replies: ["Hi."] });
    await call.start();
    await call.untilListening();
    await call.say(400, 800);
    await call.untilListening();
    await call.session.hangup("caller_hangup");
    await call.session.done;
    const [left, right] = call.recordingChannels() ?? [];
    expect(left?.some((s) => Math.abs(s) > 5000)).toBe(true);
    expect(right?.some((s) => s !== 0)).toBe(true);
    // The first message plays while the caller is silent: left is quiet where right speaks.
    const firstSpeech = right?.findIndex((s) => s !== 0) ?? -1;
    expect(firstSpeech).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ["audio_recording off", { audio_recording: false }],
    ["HIPAA", { hippa_compliant: true }],
    ["PCI", { pci_compliant: true }],
  ])("keeps no recording with %s", async (_, assistant) => {
    const call = new CallHarness({ assistant });
    await call.start();
    await call.session.hangup("caller_hangup");
    expect((await call.session.done).recording).toBeNull();
  });
});

describe("background audio", () => {
  it("mixes the ambience under silence and speech", async () => {
    const call = new CallHarness({ assistant: { background_audio_id: "office", first_speaker: "user" } });
    await call.start();
    await call.wait(200);
    expect(call.audio.length).toBeGreaterThanOrEqual(10);
    expect(call.audio.every((f) => f.some((s) => s !== 0))).toBe(true);
    await call.session.hangup("caller_hangup");
  });
});

describe("silence after noise", () => {
  it("counts the caller's silence again after a noise with no words", async () => {
    const call = new CallHarness({
      assistant: { first_speaker: "user", timeout_seconds: 5, timeout_message: "Hello?" },
    });
    await call.start();
    await call.wait(3000);
    await call.say(400); // the recogniser hears nothing
    await call.wait(3000);
    expect(call.tts.texts).toEqual([]);
    await call.wait(3000);
    expect(call.tts.texts).toEqual(["Hello?"]);
    await call.session.hangup("caller_hangup");
  });
});
