import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { openSignedInAt } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.ts";

// Issue 29's browser test: a user writes a test case for an assistant (a one-line script, and what
// the call must do), runs it, watches it go from running to passed as the call happens, and reads
// the result's evidence. The whole loop is keyless: a simulated caller speaking with the offline
// voice, an assistant on the offline recogniser and voice with a scripted local model.

// The model server listens on 127.0.0.1: the server may reach it only when told so.
const product = useSignedInProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
let llm: ScriptedLlm;
let page: Page;
let assistantId = "";

beforeAll(async () => {
  llm = await startScriptedLlm(["Your table for two is booked. Goodbye!"]);
  assistantId = await createOfflineAssistant(product.server, product.token, llm.baseUrl, {
    name: "Front desk",
    first_message: "Hello, this is the front desk.",
    system_prompt: "You take table bookings.",
  });
  page = product.page;
});

afterAll(async () => {
  await llm?.stop();
});

/** The status a chip under `scope` shows (data-status: queued, running, passed…). */
const statusOf = (scope: ReturnType<Page["locator"]>) =>
  scope.locator("[data-status]").first().getAttribute("data-status");

// A run calls the assistant in real time through speech recognition and synthesis on a busy
// two-core machine: the test gets three minutes.
const RUN_TIMEOUT_MS = 180_000;

describe("test suites in the browser", () => {
  it("reaches an assistant's tests from its page and creates a suite from the empty state", async () => {
    await page.goto(`${product.server.url}/assistants/${assistantId}`);
    await page.getByRole("main").getByRole("link", { name: "Tests", exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/assistants/${assistantId}/tests`);
    await page.getByRole("heading", { name: "Tests of Front desk", level: 1 }).waitFor();
    await page.getByText("No test suites yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Create a test suite" }).click();
    const dialog = page.getByRole("dialog", { name: "New test suite" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Bookings");
    await dialog.getByRole("button", { name: "Create a test suite" }).click();
    await page.getByText("Test suite created").waitFor();
    await page.getByRole("heading", { name: "Bookings", level: 1 }).waitFor();
    // The assistant stays in view: the trail names it and leads back to it.
    await page.getByRole("navigation", { name: "Where you are" }).getByRole("link", { name: "Front desk" }).waitFor();
    await page.getByText("No test cases yet").waitFor();
  });

  it("writes a scripted case, refusing it first without a name", async () => {
    await page.getByRole("button", { name: "New test case" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New test case" });
    await dialog.getByRole("textbox", { name: "Line 1" }).fill("A table for two tonight, please.");
    await dialog.getByRole("button", { name: "New test case" }).click();
    await dialog.getByText("Name is required").waitFor();

    await dialog.getByRole("textbox", { name: "Name" }).fill("Books a table");
    // A new case expects the caller to hang up; a generous latency bound is added beside it.
    await dialog.getByRole("button", { name: "Add an expectation" }).click();
    await page.getByRole("menuitem", { name: "Latency" }).click();
    await dialog.getByRole("textbox", { name: "p95 latency under (ms)" }).fill("60000");
    await dialog.getByRole("button", { name: "New test case" }).click();
    await page.getByText("Test case created").waitFor();
    await dialog.waitFor({ state: "detached" });
    await page
      .getByRole("table", { name: "Test cases" })
      .getByRole("cell", { name: "Books a table", exact: true })
      .waitFor();
  });

  it("runs the suite and shows the case running, then passed, live", { timeout: RUN_TIMEOUT_MS }, async () => {
    await page.getByRole("button", { name: "Run suite" }).click();
    await page.waitForURL((url) => /\/tests\/[0-9a-f-]{36}\/runs\/[0-9a-f-]{36}$/.test(url.pathname));
    await page.getByRole("heading", { name: /^Run of /, level: 1 }).waitFor();
    const testCase = page.getByRole("article", { name: "Books a table" });
    // The page polls the run: the call shows as running while it happens, with its words so far…
    await expect.poll(() => statusOf(testCase), { timeout: 90_000, interval: 250 }).toBe("running");
    await testCase.getByRole("heading", { name: "Live transcript" }).waitFor();
    // …then as judged, without a reload.
    await expect.poll(() => statusOf(testCase), { timeout: 150_000, interval: 500 }).toBe("passed");
    await page.getByText("Cases: 1 · 1 passed").waitFor();
  });

  it("shows each expectation's verdict and evidence, and links the call's log", async () => {
    const testCase = page.getByRole("article", { name: "Books a table" });
    const expectations = testCase.getByRole("list", { name: "Expectations" });
    const ending = expectations.getByRole("listitem").filter({ hasText: "Ends as caller_hangup" });
    await ending.getByText("The call ended as caller_hangup.").waitFor();
    expect(await ending.getAttribute("data-passed")).toBe("true");
    await ending.getByRole("button", { name: "Show evidence" }).click();
    await ending.getByText("end_reason").waitFor();

    const latency = expectations.getByRole("listitem").filter({ hasText: "p95 latency under 60000 ms" });
    expect(await latency.getAttribute("data-passed")).toBe("true");
    await latency.getByRole("button", { name: "Show evidence" }).click();
    await latency.getByText("p95_ms").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // The call is an ordinary call log on the test channel, opened in the call logs' drawer.
    await testCase.getByRole("link", { name: "Open the call log" }).click();
    await page.waitForURL((url) => url.pathname === "/call-logs" && url.searchParams.has("call"));
    await page.getByRole("dialog", { name: "Call details" }).getByText("Test", { exact: true }).first().waitFor();
  });

  it("runs the suite against an older version of the assistant, and the run says which", {
    timeout: RUN_TIMEOUT_MS,
  }, async () => {
    // Version 2 is published; the run asks for version 1.
    const api = (method: string, path: string, body?: unknown) =>
      apiCall(product.server.url, product.token, method, path, body);
    await api("PUT", `/agents/${assistantId}/draft`, { system_prompt: "You take table bookings, politely." });
    await api("POST", `/agents/${assistantId}/publish`, { note: "Politer" });
    // Back from the call log to the run, and along its trail to the suite.
    await page.goBack();
    await page.getByRole("navigation", { name: "Where you are" }).getByRole("link", { name: "Bookings" }).click();
    await page.getByRole("heading", { name: "Bookings", level: 1 }).waitFor();
    const version = page.getByRole("combobox", { name: /^Assistant version/ });
    // The versions are read again on the way in: the select names the new published version.
    await expect.poll(() => version.textContent()).toContain("Published version (v2)");
    await version.click();
    await page.getByRole("option", { name: "Version 1: Created" }).click();
    expect(await version.textContent()).toContain("Version 1: Created");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Run suite" }).click();
    await page.waitForURL((url) => /\/tests\/[0-9a-f-]{36}\/runs\/[0-9a-f-]{36}$/.test(url.pathname));
    const asked = page.locator("dt", { hasText: "Assistant version" }).locator("xpath=following-sibling::dd[1]");
    await asked.filter({ hasText: /^Version 1$/ }).waitFor();
    const testCase = page.getByRole("article", { name: "Books a table" });
    await expect.poll(() => statusOf(testCase), { timeout: 150_000, interval: 500 }).toBe("passed");
    const [, , , , suiteId, , runId] = new URL(page.url()).pathname.split("/");
    const run = await apiCall<{ agent_version: number; results: { agent_version: number }[] }>(
      product.server.url,
      product.token,
      "GET",
      `/test-suites/${suiteId}/runs/${runId}`,
    );
    expect(run.agent_version).toBe(1);
    expect(run.results.map((result) => result.agent_version)).toEqual([1]);
    // The suite's runs list each run's version: both ran version 1 (the first before version 2 existed).
    await page.getByRole("navigation", { name: "Where you are" }).getByRole("link", { name: "Bookings" }).click();
    const versions = page.getByRole("table", { name: "Runs" }).getByRole("cell", { name: "Version 1", exact: true });
    await expect.poll(() => versions.count()).toBe(2);
  });

  it("fits the version select on a 390 px phone in Arabic, right to left and dark", async () => {
    const suitePath = new URL(page.url()).pathname;
    const phone = await openSignedInAt(product.browser, product.server, "/home");
    await phone.setViewportSize({ width: 390, height: 844 });
    await storeArabicDarkMode(phone);
    await phone.goto(`${product.server.url}${suitePath}`);
    const select = phone.getByRole("combobox", { name: /^إصدار المساعد/ });
    await expect.poll(() => select.textContent()).toContain("الإصدار المنشور (v2)");
    const box = await select.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    const look = await phone.evaluate(() => ({
      dir: document.documentElement.dir,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", overflow: 0 });
    expect(await phone.locator("main").innerText()).not.toMatch(/versionSelect\./);
    expect(await seriousViolations(phone)).toEqual([]);
    await phone.context().close();
  });
});
