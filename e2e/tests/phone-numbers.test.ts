import { randomBytes } from "node:crypto";
import { isNonSilent } from "@parley/engine/testing/telephony/audio-checks";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { openEmptyListPage } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.ts";

// Phone numbers in the browser against a local Twilio (the telephony double speaks its REST API,
// signed webhooks, TwiML and Media Streams): import the account's numbers, assign an assistant,
// place an outbound call from the number's page, and find the call with its recording in the logs.

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBERS = ["+14155550100", "+14155550101"];
const DESTINATION = "+14155550123";

let double: TwilioDouble;
let llm: ScriptedLlm;
// The double listens on 127.0.0.1: the server may reach it only when told so.
const product = useSignedInProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" });
let page: Page;

beforeAll(async () => {
  [double, llm] = await Promise.all([
    startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: NUMBERS }] }),
    startScriptedLlm(["Thanks for taking my call. Goodbye!"]),
  ]);
  const { server, token } = product;
  await createOfflineAssistant(server, token, llm.baseUrl, {
    name: "Sales caller",
    first_message: "Hello, this is Parley calling about your order.",
    system_prompt: "You call customers about their orders.",
    audio_recording: true,
  });
  page = product.page;
});

afterAll(async () => {
  await Promise.all([llm?.stop(), double?.close()]);
});

describe("phone numbers page", () => {
  it("starts empty, and imports the numbers of a telephony account", async () => {
    await openEmptyListPage(page, `${product.server.url}/phone-numbers`, "Phone numbers", "No phone numbers yet");

    await page.getByRole("button", { name: "Import from provider" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Import numbers from a provider" });
    await dialog.getByRole("combobox", { name: "Provider" }).waitFor();
    expect(await dialog.getByRole("combobox", { name: "Provider" }).textContent()).toContain("Twilio");
    // Nothing is saved for this vendor yet: the dialog asks for the credentials.
    await dialog.getByRole("radio", { name: "Enter credentials" }).check();
    // Submitting empty says what is missing beside the field, without asking the server.
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await dialog.getByText("Account SID is required.").waitFor();
    await dialog.getByRole("textbox", { name: "Account SID" }).fill(SID);
    await dialog.getByLabel("Auth token").fill(TOKEN);
    await dialog.getByRole("textbox", { name: "API base URL" }).fill(double.origin);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("Successfully imported 2 phone number(s) (0 failed)").waitFor({ timeout: 30_000 });
    await dialog.waitFor({ state: "detached" });

    for (const number of NUMBERS) await page.getByRole("row", { name: new RegExp(`\\${number}`) }).waitFor();
    expect(
      await page
        .getByRole("row", { name: /\+14155550100/ })
        .getByText("Twilio")
        .count(),
    ).toBe(1);
    // Each imported number's voice webhook now points at this Parley.
    const webhooks = [...double.numbers.values()].map((n) => n.voiceUrl);
    expect(webhooks).toHaveLength(2);
    for (const url of webhooks) expect(url.startsWith(product.server.url)).toBe(true);

    // Importing again adds nothing: both numbers are already registered.
    await page.getByRole("button", { name: "Import from provider" }).first().click();
    const again = page.getByRole("dialog", { name: "Import numbers from a provider" });
    // The credentials typed the first time were kept as the workspace's integration.
    await again.getByRole("radio", { name: "Enter credentials" }).waitFor();
    if (await again.getByRole("radio", { name: "Saved credentials" }).isEnabled()) {
      await again.getByRole("radio", { name: "Saved credentials" }).check();
    } else {
      await again.getByRole("textbox", { name: "Account SID" }).fill(SID);
      await again.getByLabel("Auth token").fill(TOKEN);
      await again.getByRole("textbox", { name: "API base URL" }).fill(double.origin);
    }
    await again.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("No phone numbers were imported").waitFor({ timeout: 30_000 });
  }, 120_000);

  it("refuses a number already registered with the server's text, and deletes a number after asking", async () => {
    await page.getByRole("button", { name: "Add number" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add a phone number" });
    await dialog.getByRole("textbox", { name: "Phone number" }).fill("415 555 0101");
    await dialog.getByRole("button", { name: "Add number" }).click();
    // No country code and no country: said beside the field, before asking the server.
    await dialog.getByText("Choose the country, or type the number with + and its country code.").waitFor();
    await dialog.getByRole("textbox", { name: "Phone number" }).fill("+1 415 555 0101");
    await dialog.getByRole("button", { name: "Add number" }).click();
    // The server's own sentence (spec §8), not the generic words of its status.
    await dialog.getByText("This phone number is already registered in your workspace", { exact: true }).waitFor();
    // A trunk number needs Parley's SIP side, which this server runs without: the server says so.
    await dialog.getByRole("radio", { name: "SIP trunk" }).check();
    await dialog.getByRole("textbox", { name: "SIP server" }).fill("sip.carrier.example");
    await dialog.getByRole("textbox", { name: "Phone number" }).fill("+44 20 7946 0958");
    await dialog.getByRole("button", { name: "Add number" }).click();
    await dialog.getByText("Set a public SIP host (SIP_HOST) before adding SIP numbers.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: /^Delete .*555-0101|^Delete \+14155550101/ }).click();
    await page
      .getByRole("dialog", { name: "Delete this phone number?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.getByText("Phone number deleted").waitFor();
    await page.getByRole("row", { name: /\+14155550101/ }).waitFor({ state: "detached" });
  }, 120_000);

  it("assigns the assistants, places an outbound call, and finds it with its recording in the call logs", async () => {
    await page
      .getByRole("row", { name: /\+14155550100/ })
      .getByRole("link")
      .click();
    await page.waitForURL((url) => /^\/phone-numbers\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByRole("heading", { name: "Details" }).waitFor();
    await page.getByText("No calls yet.").waitFor();

    await page.getByRole("combobox", { name: /^Inbound assistant/ }).click();
    await page.getByRole("option", { name: "Sales caller" }).click();
    await page.getByRole("combobox", { name: /^Outbound assistant/ }).click();
    await page.getByRole("option", { name: "Sales caller" }).click();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Phone number updated").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Call a number" }).click();
    const dialog = page.getByRole("dialog", { name: "Call a number" });
    await dialog.getByText("Sales caller will speak on this call.").waitFor();
    await dialog.getByRole("textbox", { name: "Number to call" }).fill(DESTINATION);
    await dialog.getByRole("button", { name: "Call", exact: true }).click();
    await page.getByText("Outbound call initiated").waitFor({ timeout: 30_000 });

    // The double answers; the assistant speaks over the media stream; the callee hangs up.
    const call = await double.waitForCall((c) => c.to === DESTINATION, 45_000);
    await expect.poll(() => call.legs.length, { timeout: 45_000 }).toBeGreaterThan(0);
    const leg = call.legs[0];
    if (!leg) throw new Error("the call opened no media stream");
    await leg.waitForAudio(1500, 45_000);
    expect(isNonSilent(leg.received())).toBe(true);
    await leg.hangup();

    // The number's page lists the call; it opens in the call logs with its recording.
    const recent = page.getByRole("list", { name: "Recent calls" });
    await recent.getByText(DESTINATION).waitFor({ timeout: 30_000 });
    await recent.getByRole("link").first().click();
    await page.waitForURL((url) => url.pathname === "/call-logs" && url.searchParams.has("call"));
    const details = page.getByRole("region", { name: "Call details" });
    await details.getByText("Sales caller").first().waitFor();
    await details.locator("audio").waitFor({ timeout: 30_000 });
    const duration = await details
      .locator("audio")
      .evaluate(
        (audio: HTMLAudioElement) =>
          new Promise<number>((resolve) =>
            audio.readyState >= 1
              ? resolve(audio.duration)
              : audio.addEventListener("loadedmetadata", () => resolve(audio.duration)),
          ),
      );
    expect(duration).toBeGreaterThan(0.5);
  }, 240_000);

  it("reads right to left in Arabic and in dark mode without contrast or naming problems", async () => {
    await page.goto(`${product.server.url}/phone-numbers`);
    await page.getByRole("row", { name: /\+14155550100/ }).waitFor();
    await storeArabicDarkMode(page);
    await page.reload();
    await page.getByRole("heading", { name: "أرقام الهاتف", level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
