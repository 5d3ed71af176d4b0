import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin } from "../support/api.ts";
import { launchBrowser, signInToHome } from "../support/browser.ts";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { speechWav } from "../support/speech-wav.ts";

// What a new user trips over (issue 11), one class per test, as a person sees it in Chromium.
// Screenshots for the review go to SCREENS_DIR (default /work/screens) when it is set or exists.
const screens = process.env.SCREENS_DIR ?? "/work/screens";
const CUSTOM_MODEL = "llama3.2:3b";

let llm: ScriptedLlm;
let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let token: string;
let customId: string;
let callerId: string;

beforeAll(async () => {
  llm = await startScriptedLlm(["Nice to hear from you."]);
  const microphone = speechWav("Hello there.");
  [server, browser] = await Promise.all([
    startServer({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }),
    launchBrowser([
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${microphone}`,
      "--autoplay-policy=no-user-gesture-required",
    ]),
  ]);
  token = await apiLogin(server.url, server.admin.email, server.admin.password);
  const offline = {
    llm_provider: "openai-compatible",
    llm_provider_config: { model: CUSTOM_MODEL, base_url: llm.baseUrl },
    stt_provider: "local",
    stt_provider_config: {},
    tts_provider: "local",
    tts_provider_config: { model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16000 },
  };
  customId = (await apiCall<{ id: string }>(server.url, token, "POST", "/agents", { name: "Local desk", ...offline }))
    .id;
  callerId = (
    await apiCall<{ id: string }>(server.url, token, "POST", "/agents", {
      name: "Greeter",
      first_speaker: "assistant",
      first_message: "Hello, this is the greeter speaking.",
      transfer_config: [{ name: "Front office", number: "+15550100", transfer_message: "One moment please." }],
      ...offline,
    })
  ).id;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.stop();
});

async function open(path: string, viewport = { width: 1440, height: 900 }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await signInToHome(page, server);
  await page.goto(`${server.url}${path}`);
  return page;
}

const shoot = (page: Page, name: string) => page.screenshot({ path: `${screens}/${name}.png`, fullPage: false });

/** The editor's tab labels that are not wholly inside the visible strip of tabs. */
async function hiddenTabs(page: Page) {
  await page.getByRole("tab", { name: "Model" }).waitFor();
  const strip = await page.locator(".MuiTabs-scroller").boundingBox();
  const hidden: string[] = [];
  for (const tab of await page.getByRole("tab").all()) {
    const box = await tab.boundingBox();
    if (!strip || !box || box.x < strip.x - 1 || box.x + box.width > strip.x + strip.width + 1) {
      hidden.push((await tab.textContent()) ?? "?");
    }
  }
  return hidden;
}

/** Whether the element's centre is what a click there would reach (nothing lies on top of it). */
const uncovered = (page: Page, selector: string) =>
  page.locator(selector).evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(
      box.left + Math.min(40, box.width / 2),
      box.top + Math.min(40, box.height / 2),
    );
    return top !== null && element.contains(top);
  });

describe("what a new user trips over", () => {
  it("resets the screen on a workspace switch: search, list and open editor follow the new workspace", async () => {
    const branch = await apiCall<{ id: string }>(server.url, token, "POST", "/workspaces", { name: "Branch office" });
    const switched = await apiCall<{ access_token: string }>(
      server.url,
      token,
      "POST",
      `/switch-workspace/${branch.id}`,
    );
    await apiCall(server.url, switched.access_token, "POST", "/agents", { name: "Branch line" });
    // Switching remembers the workspace for the next sign-in: go back, so the browser starts in the first one.
    const workspaces = await apiCall<{ id: string; name: string }[]>(server.url, token, "GET", "/workspaces");
    const first = workspaces.find((w) => w.name !== "Branch office");
    await apiCall(server.url, token, "POST", `/switch-workspace/${first?.id}`);

    const page = await open("/assistants");
    await page.getByRole("link", { name: "Local desk" }).waitFor();
    await page.getByRole("searchbox", { name: "Search assistants" }).fill("desk");
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: /Branch office/ }).click();
    await page.getByText("Workspace switched").waitFor();
    // The new workspace's list, not the old search over it.
    await page.getByRole("link", { name: "Branch line" }).waitFor();
    expect(await page.getByRole("searchbox", { name: "Search assistants" }).inputValue()).toBe("");

    // An editor open on an assistant of the other workspace is left, not kept editable.
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: /Administrator's workspace/ }).click();
    // The switch is done once the topbar names the workspace (the first switch's notice may still
    // be on screen, so "Workspace switched" alone could be the old one).
    await page.getByRole("button", { name: "Workspace: Administrator's workspace. Switch workspace" }).waitFor();
    await page.goto(`${server.url}/assistants/${customId}`);
    await page.getByRole("heading", { name: "Local desk" }).waitFor();
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: /Branch office/ }).click();
    await page.getByRole("heading", { name: "Assistant not found" }).waitFor();
    expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0);
    await page.close();
    await apiCall(server.url, token, "POST", `/switch-workspace/${first?.id}`);
  });

  it("keeps a custom model on load and after Duplicate, and lists labels instead of ids", async () => {
    const page = await open(`/assistants/${customId}`);
    const model = page.getByRole("combobox", { name: "Model", exact: true });
    await model.waitFor();
    await page.waitForLoadState("networkidle");
    expect(await model.inputValue()).toBe(CUSTOM_MODEL);
    await page.getByText("Not in this provider's list: used exactly as typed.").waitFor();
    expect(await page.getByText("Unsaved changes").count()).toBe(0);

    await page.goto(`${server.url}/assistants`);
    const row = page.getByRole("row", { name: /Local desk/ });
    expect(await row.textContent()).not.toMatch(/openai-compatible|\blocal\b/);
    await page.getByRole("button", { name: "Duplicate Local desk" }).click();
    await page.getByRole("heading", { name: /Local desk/ }).waitFor();
    await page.waitForURL((url) => url.pathname !== "/assistants");
    await page.waitForLoadState("networkidle");
    expect(await page.getByRole("combobox", { name: "Model", exact: true }).inputValue()).toBe(CUSTOM_MODEL);
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
    await page.close();
  });

  it("explains a field's problem in a sentence on the field", async () => {
    const page = await open(`/assistants/${customId}`);
    const tokens = page.getByRole("spinbutton", { name: "Maximum tokens per reply" });
    await tokens.fill("99999");
    await tokens.blur();
    await page.getByText("Enter 8192 or less.").waitFor();
    await tokens.fill("");
    await tokens.blur();
    await page.getByText("This field is required.").waitFor();
    expect(await page.getByText(/Too big|Invalid input|expected number/).count()).toBe(0);
    await tokens.evaluate((element) => element.scrollIntoView({ block: "center" }));
    await shoot(page, "field-errors-1440");
    await page.close();
  });

  it("shows every editor tab label at 1440×900 and 1280×800, with readable transfer fields", async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1280, height: 800 },
    ]) {
      const page = await open(`/assistants/${callerId}`, viewport);
      expect(await hiddenTabs(page)).toEqual([]);
      await shoot(page, `assistant-editor-${viewport.width}x${viewport.height}`);
      await page.getByRole("tab", { name: /Call transfer/ }).click();
      const name = await page.getByRole("textbox", { name: "Destination 1 name" }).boundingBox();
      expect(name?.width ?? 0).toBeGreaterThan(200);
      await page.close();
    }
  });

  it("keeps the conversation with a Call ended line when you end the call, and calls the channel Browser", async () => {
    const page = await open(`/assistant?assistantId=${callerId}`);
    await page.getByRole("button", { name: "Start call" }).click();
    await page.waitForSelector('[data-testid="live-call"][data-status="connected"]');
    const chat = page.getByRole("log", { name: "Conversation" });
    // The caller's looping microphone may cut the greeting short: any assistant line will do.
    const said = chat.locator('[data-role="assistant"]');
    await said.first().waitFor({ timeout: 45_000 });
    // An assistant bubble of which nothing was heard goes away when the call cuts it (barge-in, End
    // call); the caller's own lines always stay, so one of those is what the kept conversation has.
    const kept = chat.locator('[data-role="user"], [data-role="assistant"]');
    await chat.locator('[data-role="user"]').first().waitFor({ timeout: 60_000 });

    // The keypad opens without covering End call or the chat.
    await page.getByRole("button", { name: "Keypad" }).click();
    await page.getByRole("button", { name: "Press 1" }).waitFor();
    expect(await uncovered(page, 'button:has-text("End call")')).toBe(true);
    expect(await uncovered(page, '[role="log"]')).toBe(true);

    await page.getByRole("button", { name: "End call" }).click();
    await page.waitForSelector('[data-testid="live-call"][data-status="disconnected"]');
    expect(await kept.count()).toBeGreaterThan(0);
    await chat.getByText("Call ended").waitFor();
    await page.waitForTimeout(500); // let the Start button's colour transition finish for the screenshot
    await shoot(page, "live-call-after-ending");

    await page.goto(`${server.url}/call-logs`);
    const row = page.getByRole("row", { name: /Open the call with Greeter/ }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain("Browser");
    await page.close();
  });

  it("lays out navigation, dialogs and filters so nothing falls off", async () => {
    // Horizontal navigation keeps the name and every entry on screen.
    const page = await open("/home");
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem("parley.preferences") ?? "{}") as Record<string, unknown>;
      localStorage.setItem("parley.preferences", JSON.stringify({ ...stored, horizontal: true }));
    });
    await page.reload();
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.waitFor();
    await page.getByRole("banner").getByText("Parley", { exact: true }).waitFor();
    const overflow = await nav.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.close();

    // The new-function dialog's buttons stay in view at 900 px height.
    const functions = await open("/functions");
    await functions.getByRole("button", { name: "New function" }).first().click();
    const create = functions.getByRole("dialog").getByRole("button", { name: "Save", exact: true });
    const box = await create.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(900);
    await functions.close();

    // Wrapped call-log filters line up on a phone.
    const phone = await open("/call-logs", { width: 390, height: 844 });
    const filters = phone.getByTestId("call-log-filters");
    await filters.waitFor();
    const lefts = await filters.evaluate((grid) =>
      Array.from(grid.children, (child) => Math.round(child.getBoundingClientRect().left)),
    );
    expect(new Set(lefts).size).toBe(1);
    await phone.close();
  });

  it("says a provider key is missing before the test call or voice preview is tried", async () => {
    const cloud = await apiCall<{ id: string }>(server.url, token, "POST", "/agents", { name: "Cloud line" });
    const page = await open(`/assistants/${cloud.id}`);
    const note = page.getByText(/A test call needs API keys that are not set yet: OpenAI and Deepgram\./);
    await note.waitFor();
    expect(await page.getByRole("button", { name: "Test call" }).isDisabled()).toBe(true);
    await page.getByRole("tab", { name: "Voice" }).click();
    await page
      .getByText("Samples of this voice need the OpenAI API key, which is not set yet.", { exact: false })
      .waitFor();
    expect(await page.getByRole("button", { name: "Preview voice" }).isDisabled()).toBe(true);
    await page.getByRole("link", { name: "Open Integrations" }).first().waitFor();
    await page.close();
  });

  it("answers a bad batch call id with a not-found state", async () => {
    const page = await open("/call-logs/batch-call-id/not-a-batch");
    await page.getByRole("heading", { name: "Batch call not found" }).waitFor();
    expect(await page.getByText(/Validation error|Invalid UUID/).count()).toBe(0);
    await page.close();
  });
});
