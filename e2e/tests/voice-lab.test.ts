import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { toneWav } from "../../apps/server/test/support/wav.ts";
import { seriousViolations } from "../support/axe.ts";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

async function openVoiceLab(): Promise<Page> {
  const page = await product.browser.newPage();
  await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
  await page.waitForURL((url) => url.pathname === "/home");
  await page.goto(`${product.server.url}/voice-lab`);
  await page.getByRole("heading", { name: "Voice lab", level: 1 }).waitFor();
  return page;
}

/** A short 16 kHz mono WAV of a tone: a file a person could pick as a voice sample. */
function voiceSampleWav(seconds = 0.2): Buffer {
  return toneWav(16000, seconds, 1, 8000);
}

/** Reads the sample's WAV in the page (from its blob URL) and measures its data chunk. */
function measureSample(page: Page) {
  return page.evaluate(async () => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="voice-sample"]');
    if (!audio) throw new Error("no audio element");
    const bytes = new Uint8Array(await (await fetch(audio.src)).arrayBuffer());
    const view = new DataView(bytes.buffer);
    const tag = (at: number) => String.fromCharCode(...bytes.slice(at, at + 4));
    let offset = 12;
    let peak = 0;
    let samples = 0;
    while (offset + 8 <= bytes.length) {
      const size = view.getUint32(offset + 4, true);
      if (tag(offset) === "data") {
        const end = Math.min(bytes.length, offset + 8 + size);
        for (let i = offset + 8; i + 1 < end; i += 2) {
          peak = Math.max(peak, Math.abs(view.getInt16(i, true)));
          samples++;
        }
        break;
      }
      offset += 8 + size + (size % 2);
    }
    return { riff: tag(0), wave: tag(8), peak, samples };
  });
}

describe("voice lab", () => {
  it("plays a sample of the offline voice", async () => {
    const page = await openVoiceLab();
    await page.getByText("No voice clones yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("combobox", { name: "Provider" }).click();
    await page.getByRole("option", { name: "Local voice (offline, no key needed)" }).click();
    // The local provider's defaults are in its list, so they stay selected.
    await expect.poll(() => page.getByRole("combobox", { name: "Model", exact: true }).inputValue()).toBe("eSpeak NG");
    await expect
      .poll(() => page.getByRole("combobox", { name: "Voice", exact: true }).inputValue())
      .toBe("English (US)");

    const text = page.getByRole("textbox", { name: "Text to speak" });
    await text.fill("Testing the voice lab, one two three.");
    await page.getByText("37 / 500 characters").waitFor();

    await page.getByRole("button", { name: "Play sample" }).click();
    await page.getByTestId("voice-sample").waitFor();
    const sample = await measureSample(page);
    expect(sample.riff).toBe("RIFF");
    expect(sample.wave).toBe("WAVE");
    expect(sample.samples).toBeGreaterThan(16000 * 0.5);
    expect(sample.peak).toBeGreaterThan(1000);
    // The preview button reports the sample: duration, voice and model as the server names them.
    await page.getByText(/^\d+\.\d s · en-us · espeak-ng$/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("checks the clone's files before uploading and keeps everything when the server refuses", async () => {
    const page = await openVoiceLab();
    await page.getByRole("button", { name: "Clone a voice" }).click();
    const dialog = page.getByRole("dialog", { name: "Clone a voice" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Narrator");
    await dialog.getByRole("textbox", { name: "Description" }).fill("Warm, calm reading voice");
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByRole("button", { name: "Clone voice" }).click();
    await dialog.getByText("Choose at least one audio file.").waitFor();

    const picker = dialog.locator('input[type="file"]');
    expect(await picker.getAttribute("accept")).toBe("audio/*");
    await picker.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not audio") });
    await dialog.getByText("notes.txt is not an audio file.").waitFor();
    await dialog.getByRole("button", { name: "Remove notes.txt" }).click();

    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    await picker.setInputFiles({ name: "long-take.wav", mimeType: "audio/wav", buffer: big });
    await dialog.getByText("long-take.wav is larger than 10 MB.").waitFor();
    await dialog.getByRole("button", { name: "Remove long-take.wav" }).click();

    const takes = ["1", "2", "3", "4", "5", "6"].map((n) => ({
      name: `take-${n}.wav`,
      mimeType: "audio/wav",
      buffer: voiceSampleWav(),
    }));
    await picker.setInputFiles(takes);
    await dialog.getByText("Choose at most 5 files; remove some.").waitFor();
    await dialog.getByRole("button", { name: "Remove take-6.wav" }).click();
    expect(await dialog.getByText(/Choose at most/).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    // No ElevenLabs key in this workspace: the server says so and the dialog keeps its contents.
    await dialog.getByRole("button", { name: "Clone voice" }).click();
    await dialog.getByText(/No API key for ElevenLabs/).waitFor();
    expect(await dialog.getByRole("textbox", { name: "Name" }).inputValue()).toBe("Narrator");
    expect(await dialog.getByRole("list", { name: "Chosen audio files" }).getByRole("listitem").count()).toBe(5);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByText("No voice clones yet").waitFor();
  });
});
