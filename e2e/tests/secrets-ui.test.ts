import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin, createUser } from "../support/api.ts";
import { launchBrowser, openHomePage } from "../support/browser.ts";
import { inviteToAdminWorkspace } from "../support/invitations.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { startSmtpServer } from "../support/smtp.ts";

/**
 * Issue 11 items 5 and 7: a missing provider key and an owner-only action are said before anyone
 * tries, not after a failed request.
 */

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: RunningServer;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  [server, browser] = await Promise.all([startServer({ SMTP_URL: smtp.url }), launchBrowser()]);
  adminToken = await apiLogin(server.url, server.admin.email, server.admin.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

describe("before trying", () => {
  it("the voice lab says which key a provider lacks and offers the way to add it", async () => {
    const page = await openHomePage(browser, server);
    await page.goto(`${server.url}/voice-lab`);
    await page.getByRole("heading", { name: "Voice lab", level: 1 }).waitFor();
    await page.getByRole("combobox", { name: "Provider" }).click();
    await page.getByRole("option", { name: "OpenAI", exact: true }).click();

    await page
      .getByText("The OpenAI API key is missing, so samples cannot play yet. Add it on the Integrations page.")
      .waitFor();
    expect(await page.getByRole("button", { name: "Play sample" }).isDisabled()).toBe(true);
    await page.getByRole("link", { name: "Open Integrations" }).click();
    await page.waitForURL((url) => url.pathname === "/integrations");
    await page.close();
  });

  it("a member sees the integrations' owner-only actions disabled, with the reason", async () => {
    const member = await createUser(server.url, adminToken, "Plain Member");
    const invited = await inviteToAdminWorkspace(server, adminToken, smtp, member.email);
    const home = invited.workspace;
    const link = new URL(invited.link);
    const memberToken = await apiLogin(server.url, member.username, member.password);
    await apiCall(server.url, memberToken, "POST", "/invitations/accept", {
      token: link.searchParams.get("invitation"),
    });

    const page = await openHomePage(browser, server, member);
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: new RegExp(home.name) }).click();
    await page.getByRole("button", { name: `Workspace: ${home.name}. Switch workspace` }).waitFor();
    await page.goto(`${server.url}/integrations`);
    await page.getByRole("heading", { name: "Integrations", level: 1, exact: true }).waitFor();

    await page.getByText("You can see which providers are connected. Only workspace owners can change them.").waitFor();
    const reason = "Only workspace owners can connect, change, test or remove credentials.";
    const connect = page.getByRole("button", { name: "Connect OpenAI", exact: true });
    expect(await connect.isDisabled()).toBe(true);
    await page.getByRole("region", { name: "OpenAI", exact: true }).getByLabel(reason).first().hover();
    await page.getByRole("tooltip", { name: reason }).waitFor();
    expect(await page.getByRole("dialog").count()).toBe(0);
    await page.close();
  });
});
