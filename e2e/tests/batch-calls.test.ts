import { randomBytes } from "node:crypto";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { openEmptyListPage } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.ts";

// A batch call campaign in the browser against a local Twilio (the telephony double answers the
// calls and carries their media streams): create it from a CSV, start it, watch it complete, archive
// it, find it under the archived filter and open its call logs.

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const FROM = "+14155550100";
const CONTACTS = ["+14155550111", "+14155550112"];
const CSV = `first_name;phone\nAda;${CONTACTS[0]}\nBob;${CONTACTS[1]}\nCy;call me later\n`;

let double: TwilioDouble;
let llm: ScriptedLlm;
// The double listens on 127.0.0.1: the server may reach it only when told so.
const product = useSignedInProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" });
let page: Page;
let batchPath = "";
let agentId = "";
let fromId = "";

beforeAll(async () => {
  [double, llm] = await Promise.all([
    startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [FROM] }] }),
    startScriptedLlm(["Thanks for your time. Goodbye!"]),
  ]);
  const { server, token } = product;
  agentId = await createOfflineAssistant(server, token, llm.baseUrl, {
    name: "Campaign caller",
    first_message: "Hello, this is Parley calling about your renewal.",
    system_prompt: "You call customers about their renewals.",
  });
  await apiCall(server.url, token, "POST", "/phone-numbers/providers/import-numbers", {
    provider: "twilio",
    credentials: { account_sid: SID, auth_token: TOKEN, base_url: double.origin },
  });
  // The number's outbound assistant speaks on calls placed from it (the campaign names it too).
  const { phone_numbers } = await apiCall<{ phone_numbers: { id: string; number: string }[] }>(
    server.url,
    token,
    "GET",
    "/phone-numbers",
  );
  const from = phone_numbers.find((n) => n.number === FROM);
  if (!from) throw new Error("the Twilio number was not imported");
  fromId = from.id;
  await apiCall(server.url, token, "PATCH", `/phone-numbers/${from.id}`, { outbound_agent_id: agentId });
  page = product.page;
});

afterAll(async () => {
  await Promise.all([llm?.stop(), double?.close()]);
});

/** The figure shown under a label of the progress card. */
const figure = (name: string) =>
  page.getByRole("region", { name: "Progress" }).locator(`[data-figure="${name}"]`).textContent();

describe("batch calls page", () => {
  it("starts empty, and creates a campaign from a CSV after previewing it", async () => {
    await openEmptyListPage(page, `${product.server.url}/batch-calls`, "Batch calls", "No batch calls yet");

    await page.getByRole("button", { name: "New batch call" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New batch call" });
    // Saving empty says what is missing beside the fields, without asking the server.
    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await dialog.getByText("Name is required.").waitFor();
    await dialog.getByText("Choose the number to call from.").waitFor();

    await dialog.getByRole("textbox", { name: "Name" }).fill("Renewals");
    await dialog.getByRole("combobox", { name: /^From number/ }).click();
    await page.getByRole("option", { name: new RegExp(`\\${FROM}`) }).click();
    await dialog.getByRole("combobox", { name: /^Assistant/ }).click();
    await page.getByRole("option", { name: "Campaign caller" }).click();
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "contacts.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    // The browser's preview: the phone column found past the header, the first rows, the refused row.
    const preview = dialog.getByRole("region", { name: "CSV preview" });
    await preview.getByText('3 row(s): 2 to import, 1 refused. Numbers from column "phone".').waitFor();
    await preview.getByRole("cell", { name: "Ada" }).waitFor();
    await preview.getByText("Line 4: not a phone number (call me later)").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByText("Batch call created").waitFor();
    await page.getByText("CSV imported: 2 added, 1 refused, 0 on the do-not-call list").waitFor();
    await dialog.waitFor({ state: "detached" });
    await page.waitForURL((url) => /^\/batch-calls\/[0-9a-f-]{36}$/.test(url.pathname));
    batchPath = new URL(page.url()).pathname;
    await page.getByRole("heading", { name: "Renewals", level: 1 }).waitFor();
    const contacts = page.getByRole("table", { name: "Contacts" });
    for (const number of CONTACTS) await contacts.getByRole("row", { name: new RegExp(`\\${number}`) }).waitFor();
    await contacts.getByText("first_name: Ada").waitFor();
    await expect.poll(() => figure("total")).toBe("2");
  }, 120_000);

  it("starts the campaign after asking, and shows its progress until it completes", async () => {
    await page.getByRole("button", { name: "Start", exact: true }).click();
    const confirm = page.getByRole("dialog", { name: "Start this batch call?" });
    await confirm.getByText("Renewals will call 2 number(s), now or at its scheduled time.").waitFor();
    await confirm.getByRole("button", { name: "Start" }).click();
    await page.getByText("Batch call initiated").waitFor();

    // Each contact is called from the campaign's number; the assistant speaks, then the callee hangs up.
    for (const number of CONTACTS) {
      const call = await double.waitForCall((c) => c.to === number, 60_000);
      expect(call.from).toBe(FROM);
      await expect.poll(() => call.legs.length, { timeout: 60_000 }).toBeGreaterThan(0);
      const leg = call.legs[0];
      if (!leg) throw new Error(`the call to ${number} opened no media stream`);
      await leg.waitForAudio(500, 60_000);
      await leg.hangup();
    }

    // The page polls while the campaign runs: the status and the figures move without a reload.
    await page.getByText("Completed", { exact: true }).first().waitFor({ timeout: 90_000 });
    await expect.poll(() => figure("answered"), { timeout: 30_000 }).toBe("2");
    expect(await figure("dialled")).toBe("2");
    expect(await figure("failed")).toBe("0");
    const contacts = page.getByRole("table", { name: "Contacts" });
    expect(await contacts.getByText("Answered", { exact: true }).count()).toBe(2);
    // Each placed call was dialled once.
    for (const number of CONTACTS) expect([...double.calls.values()].filter((c) => c.to === number)).toHaveLength(1);
    expect(await seriousViolations(page)).toEqual([]);
  }, 240_000);

  it("archives it, finds it under the archived filter, and opens its call logs", async () => {
    await page.getByRole("button", { name: "Archive", exact: true }).click();
    await page.getByText("Batch call archived").waitFor();

    await page.getByRole("link", { name: "All batch calls" }).click();
    await page.getByRole("heading", { name: "Batch calls", level: 1 }).waitFor();
    // The active list no longer holds it.
    await page.getByText("No batch calls yet").waitFor();

    await page.getByRole("combobox", { name: "Status" }).click();
    await page.getByRole("option", { name: "Archived" }).click();
    // The menu fades out (hidden from the accessibility tree at once, still painted) before the page is checked.
    await page.locator('[role="presentation"] [role="listbox"]').waitFor({ state: "detached" });
    await page.getByText("Showing archived batch calls.", { exact: false }).waitFor();
    // The view is in the address: a reload keeps the archived list.
    await page.waitForURL((url) => url.searchParams.get("status") === "archived");
    await page.reload();
    await page.getByText("Showing archived batch calls.", { exact: false }).waitFor();
    const row = page.getByRole("row", { name: /Renewals/ });
    await row.waitFor();
    await row.getByText("Completed").waitFor();
    await row.getByText("2 of 2 dialled").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole("link", { name: "Renewals" }).click();
    await page.waitForURL((url) => url.pathname === batchPath);
    await page.getByRole("link", { name: "View call logs" }).click();
    const id = batchPath.split("/").pop() ?? "";
    await page.waitForURL((url) => url.pathname === `/call-logs/batch-call-id/${id}`);
    const logs = page.getByRole("table", { name: "Call logs" });
    await logs.waitFor();
    // Each row names its parties: the campaign's number, then the contact's.
    for (const number of CONTACTS) await logs.getByText(`${FROM} → ${number}`).waitFor();
    await expect.poll(() => logs.locator("tbody tr").count()).toBe(2);
  }, 120_000);

  it("keeps a do-not-call list: numbers typed with a reason, listed, then removed", async () => {
    await page.goto(`${product.server.url}/batch-calls`);
    await page.getByRole("tab", { name: "Do-not-call list" }).click();
    await page.getByText("The do-not-call list is empty").waitFor();
    await page.getByRole("textbox", { name: "Numbers never to call" }).fill("+14155550199\nnot a number");
    await page.getByRole("textbox", { name: "Reason" }).fill("Asked not to be called");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByText("1 number(s) added to the do-not-call list, 1 refused").waitFor();
    const row = page.getByRole("row", { name: /\+14155550199/ });
    await row.getByText("Asked not to be called").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole("button", { name: "Remove +14155550199 from the list" }).click();
    await page.getByText("Number removed from the do-not-call list").waitFor();
    await page.getByText("The do-not-call list is empty").waitFor();
  });

  it("shows the contacts' real states after Stop, as the call still under way ends, without a reload", async () => {
    // One call at a time: the first contact is on the phone when the campaign is stopped, the
    // second is never dialled.
    const numbers = ["+14155550121", "+14155550122"];
    const created = await apiCall<{ id: string }>(product.server.url, product.token, "POST", "/batch-calls", {
      name: "Stopped early",
      agent_id: agentId,
      from_phone_number_id: fromId,
      phone_numbers: numbers.map((number) => ({ number })),
      concurrency: 1,
    });
    await page.goto(`${product.server.url}/batch-calls/${created.id}`);
    await page.getByRole("heading", { name: "Stopped early", level: 1 }).waitFor();
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await page.getByRole("dialog", { name: "Start this batch call?" }).getByRole("button", { name: "Start" }).click();
    const call = await double.waitForCall((c) => c.to === numbers[0], 60_000);
    await expect.poll(() => call.legs.length, { timeout: 60_000 }).toBeGreaterThan(0);
    const leg = call.legs[0];
    if (!leg) throw new Error("the first call opened no media stream");
    await leg.waitForAudio(500, 60_000);
    await expect.poll(() => figure("in_progress"), { timeout: 30_000 }).toBe("1");

    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await page.getByRole("dialog", { name: /^Stop/ }).getByRole("button", { name: "Stop" }).click();
    await page.getByText("Batch call stopped").waitFor();
    // The call placed before Stop carries on; once the callee hangs up, the page says so by itself.
    await leg.hangup();
    await expect.poll(() => figure("in_progress"), { timeout: 60_000 }).toBe("0");
    expect(await figure("answered")).toBe("1");
    const contacts = page.getByRole("table", { name: "Contacts" });
    await contacts.getByRole("row", { name: new RegExp(`\\${numbers[0]}.*Answered`) }).waitFor();
    await contacts.getByRole("row", { name: new RegExp(`\\${numbers[1]}.*Cancelled`) }).waitFor();
    expect(await contacts.getByText("Calling", { exact: true }).count()).toBe(0);
    expect([...double.calls.values()].filter((c) => c.to === numbers[1])).toHaveLength(0);
  }, 240_000);

  it("reads right to left in Arabic and in dark mode without contrast or naming problems", async () => {
    await storeArabicDarkMode(page);
    await page.goto(`${product.server.url}${batchPath}`);
    await page.getByRole("heading", { name: "Renewals", level: 1 }).waitFor();
    await page.getByRole("region", { name: "التقدم" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${product.server.url}/batch-calls`);
    await page.getByRole("heading", { name: "المكالمات الجماعية", level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
