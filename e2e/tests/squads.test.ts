import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallLog, PhoneNumber } from "@parley/contract";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { openSignedInAt } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";

// Issue 31's browser test: build a two-member squad in its editor, make it answer a number, ring
// the number (a local Twilio double, the caller pressing keys the assistants map to lines), and
// see the call's three segments — who spoke, why each hand-off happened — on the call page.

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBER = "+14155550140";
const TO_BILLING = "The caller has a question about an invoice.";
const BACK = "The invoice question is answered.";

/**
 * An OpenAI-compatible model on 127.0.0.1 that can call tools (the suite's chat model only
 * answers in words): the receptionist hands invoices to billing, billing hands back when the
 * caller is done, and anything else is answered in a sentence.
 */
async function startHandoffModel(): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const request = JSON.parse(body || "{}") as {
        messages?: { role: string; content?: unknown }[];
        tools?: { function: { name: string } }[];
      };
      const messages = request.messages ?? [];
      const system = String(messages[0]?.content ?? "");
      const said = String(messages.findLast((m) => m.role === "user")?.content ?? "").toLowerCase();
      const offered = (name: string) => request.tools?.some((t) => t.function.name === name) === true;
      let reply: { text: string } | { tool: string; reason: string } = { text: "Happy to help." };
      if (system.includes("You are the billing specialist.")) {
        reply =
          said.includes("that's all") && offered("handoff_to_receptionist")
            ? { tool: "handoff_to_receptionist", reason: BACK }
            : { text: "Billing here, I can see your invoice." };
      } else if (said.includes("invoice") && !said.includes("that's all") && offered("handoff_to_billing")) {
        reply = { tool: "handoff_to_billing", reason: TO_BILLING };
      } else if (system.includes("taking over this call from billing")) {
        reply = { text: "Welcome back to the front desk." };
      }
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      if ("text" in reply) {
        res.write(chunk({ role: "assistant", content: reply.text }));
        res.write(chunk({}, "stop"));
      } else {
        const call = {
          index: 0,
          id: "call_1",
          type: "function",
          function: { name: reply.tool, arguments: JSON.stringify({ reason: reply.reason }) },
        };
        res.write(chunk({ role: "assistant", tool_calls: [call] }));
        res.write(chunk({}, "tool_calls"));
      }
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let double: TwilioDouble;
let model: Awaited<ReturnType<typeof startHandoffModel>>;
// The doubles listen on 127.0.0.1: the server may reach them only when told so.
const product = useSignedInProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" });
let page: Page;
let numberId = "";

/** A select's accessible name is its label followed by the shown value, so match the label's start. */
const combobox = (scope: Page | ReturnType<Page["locator"]>, label: string) =>
  scope.getByRole("combobox", { name: new RegExp(`^${label}`) });

async function choose(scope: Page | ReturnType<Page["locator"]>, label: string, option: string) {
  await combobox(scope, label).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

beforeAll(async () => {
  [double, model] = await Promise.all([
    startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] }),
    startHandoffModel(),
  ]);
  const { server, token } = product;
  const member = (name: string, prompt: string, keys: Record<string, string>) =>
    createOfflineAssistant(server, token, model.baseUrl, {
      name,
      first_message: "Front desk, how can I help?",
      system_prompt: prompt,
      dtmf_enabled: true,
      dtmf_mapping: keys,
    });
  await member("Receptionist", "You are the receptionist.", { "1": "I have a question about my invoice" });
  await member("Billing", "You are the billing specialist.", { "2": "Thanks, that's all about my invoice" });
  await apiCall(server.url, token, "POST", "/phone-numbers/providers/import-numbers", {
    provider: "twilio",
    credentials: { account_sid: SID, auth_token: TOKEN, base_url: double.origin },
  });
  const numbers = await apiCall<{ phone_numbers: PhoneNumber[] }>(server.url, token, "GET", "/phone-numbers");
  numberId = numbers.phone_numbers.find((n) => n.number === NUMBER)?.id ?? "";
  page = product.page;
});

afterAll(async () => {
  await Promise.all([model?.stop(), double?.close()]);
});

describe("squads in the browser", () => {
  it("builds a two-member squad with hand-offs both ways", async () => {
    await page.goto(`${product.server.url}/squads`);
    await page.getByText("No squads yet").waitFor();
    await page.getByRole("button", { name: "New squad" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New squad" });
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Front office");
    for (const [n, assistant] of [
      [1, "Receptionist"],
      [2, "Billing"],
    ] as const) {
      await dialog.getByRole("button", { name: "Add member" }).click();
      await choose(dialog.getByRole("group", { name: `Member ${n}` }), "Assistant", assistant);
    }
    // The tool names come from the assistants' names; the first member added answers first.
    expect(await dialog.getByRole("group", { name: "Member 2" }).getByRole("textbox").inputValue()).toBe("billing");
    await dialog.getByRole("button", { name: "Add hand-off" }).click();
    const first = dialog.getByRole("group", { name: "Hand-off 1" });
    await first.getByRole("textbox", { name: "When to hand off" }).fill("The caller asks about an invoice.");
    await choose(first, "What the next one is told", "A summary");
    await dialog.getByRole("button", { name: "Add hand-off" }).click();
    const back = dialog.getByRole("group", { name: "Hand-off 2" });
    await choose(back, "From", "billing");
    await choose(back, "To", "receptionist");
    await back.getByRole("textbox", { name: "When to hand off" }).fill("The billing question is answered.");
    await dialog.getByRole("textbox", { name: "Bridge line" }).fill("Let me pass you on.");
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByText("Squad created").waitFor();
    const row = page.getByRole("row", { name: /Front office/ });
    await row.getByText("receptionist (answers first), billing").waitFor();
    await row.getByText("billing → receptionist").waitFor();
    // A test call can start at any member: the talk page opens with that member's assistant and the squad.
    await row.getByRole("button", { name: "Test call with Front office" }).click();
    await page
      .getByRole("dialog", { name: "Test call with Front office" })
      .getByRole("link", { name: "Start at billing" })
      .click();
    await page.waitForURL((url) => url.pathname === "/assistant" && url.searchParams.get("member") === "billing");
    await page.getByText("Squad test call").waitFor();
  });

  it("makes the squad answer a number", async () => {
    await page.goto(`${product.server.url}/phone-numbers/${numberId}`);
    await choose(page, "Inbound assistant", "Squad: Front office");
    await page.getByRole("button", { name: "Save" }).first().click();
    await page.getByText("Phone number updated").waitFor();
    await page.goto(`${product.server.url}/phone-numbers`);
    await page.getByRole("row", { name: /Squad: Front office/ }).waitFor();
  });

  it("shows a call's three segments with the reasons of its hand-offs", async () => {
    const { server, token } = product;
    const handle = await double.ringInbound(NUMBER, "+14155559999");
    const leg = await handle.stream();
    const logs = async () => (await apiCall<{ data: { id: string }[] }>(server.url, token, "GET", "/call-logs")).data;
    let callId = "";
    let last: CallLog | null = null;
    const transcriptHas = async (text: string) => {
      callId ||= (await logs())[0]?.id ?? "";
      if (!callId) return false;
      last = await apiCall<CallLog>(server.url, token, "GET", `/call-logs/${callId}`);
      return last.transcript.some((line) => line.text.includes(text));
    };
    // The log's transcript is saved as it is said; a busy machine only waits longer.
    const until = async (text: string) => {
      for (let i = 0; i < 600; i += 1) {
        if (await transcriptHas(text)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`"${text}" never reached the log: ${JSON.stringify(last).slice(0, 1500)}`);
    };
    await until("Front desk, how can I help?");
    leg.pressKeys("1");
    await until("Billing here, I can see your invoice.");
    leg.pressKeys("2");
    await until("Welcome back to the front desk.");
    await handle.hangup();

    await page.goto(`${server.url}/call-logs?call=${callId}`);
    const segments = page.getByRole("table", { name: "Which assistant spoke when" });
    await segments.waitFor({ timeout: 30_000 });
    // Each row: the assistant (its member name), when, why, cost, latency.
    const rows = (await segments.getByRole("row").allInnerTexts()).slice(1).map((r) => r.replace(/\s+/g, " "));
    expect(rows).toEqual([
      expect.stringMatching(/^Receptionist \(receptionist\) .* Answered the call /),
      expect.stringMatching(/^Billing \(billing\) /),
      expect.stringMatching(/^Receptionist \(receptionist\) /),
    ]);
    expect(rows[1]).toContain(`From receptionist: ${TO_BILLING}`);
    expect(rows[2]).toContain(`From billing: ${BACK}`);
    expect(await segments.getByRole("row").count()).toBe(4);
    await page.getByText("Handed from receptionist to billing: The caller has a question about an invoice.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 180_000);

  it("fits a 390 px phone in Arabic, right to left and dark mode, the editor included", async () => {
    const phone = await openSignedInAt(product.browser, product.server, "/home");
    await phone.setViewportSize({ width: 390, height: 844 });
    await storeArabicDarkMode(phone);
    await phone.goto(`${product.server.url}/squads`);
    await phone.getByRole("row", { name: /Front office/ }).waitFor();
    const look = await phone.evaluate(() => ({
      dir: document.documentElement.dir,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", overflow: 0 });
    expect(await phone.locator("main").innerText()).not.toMatch(/\b(squads|members|handoffs|fields)\.[a-zA-Z]/);
    await phone.getByRole("button", { name: "تعديل Front office" }).click();
    const dialog = phone.getByRole("dialog", { name: "تعديل الفريق" });
    await dialog.getByRole("group", { name: "العضو 2" }).waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    for (const field of await dialog.locator("input, button").all()) {
      const at = await field.boundingBox();
      if (at && at.width > 0)
        expect(at.x >= 0 && at.x + at.width <= 391, await field.evaluate((e) => e.outerHTML)).toBe(true);
    }
    expect(await seriousViolations(phone)).toEqual([]);
    await phone.context().close();
  });
});
