import { describe, expect, it } from "vitest";
import { apiCall, apiLogin, createUser } from "../support/api.ts";
import { openHomePage } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";
import { startSmtpServer } from "../support/smtp.ts";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const product = useProduct(async () => {
  smtp = await startSmtpServer();
  return { SMTP_URL: smtp.url };
});

describe("workspaces in the browser", () => {
  it("creates a workspace from the switcher, lands in it, and switches back", async () => {
    const page = await openHomePage(product.browser, product.server);
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: "Create a workspace" }).click();
    await page.getByRole("textbox", { name: "Workspace name" }).fill("Support Team");
    await page.getByRole("button", { name: "Create", exact: true }).click();
    await page.getByText("Workspace created").waitFor();
    await page.getByRole("button", { name: "Workspace: Support Team. Switch workspace" }).waitFor();
    await page.getByRole("heading", { name: "Current workspace" }).waitFor();
    expect(await page.getByText("Support Team").count()).toBeGreaterThan(0);

    await page.getByRole("button", { name: /Switch workspace/ }).click();
    await page.getByRole("menuitem", { name: /Administrator's workspace/ }).click();
    await page.getByText("Workspace switched").waitFor();
    await page.getByRole("button", { name: "Workspace: Administrator's workspace. Switch workspace" }).waitFor();
    await page.close();
  });

  it("invites a user, changes their role and removes them", async () => {
    const adminToken = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
    const teammate = await createUser(product.server.url, adminToken, "Team Mate");
    const page = await openHomePage(product.browser, product.server);
    await page.goto(`${product.server.url}/enterprise-quota`);
    await page.getByRole("textbox", { name: "Email to invite" }).fill(teammate.email);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.getByText(`Invitation sent to ${teammate.email}`).waitFor();
    await page.getByText("Invitation pending").waitFor();

    // The teammate accepts through the invitation's single-use link (a password sign-in does not).
    const link = await smtp.linkTo(teammate.email, `${product.server.url}/enterprise-quota`);
    const teammateToken = await apiLogin(product.server.url, teammate.username, teammate.password);
    await apiCall(product.server.url, teammateToken, "POST", "/invitations/accept", {
      token: new URL(link).searchParams.get("invitation"),
    });
    await page.reload();
    await page.getByRole("combobox", { name: "Role of Team Mate" }).click();
    await page.getByRole("option", { name: "Owner" }).click();
    await page.getByText("Role updated").waitFor();
    await page.getByRole("button", { name: "Remove Team Mate" }).click();
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByText("Member removed").waitFor();
    await page.getByRole("button", { name: "Remove Team Mate" }).waitFor({ state: "detached" });
    await page.close();
  });
});
