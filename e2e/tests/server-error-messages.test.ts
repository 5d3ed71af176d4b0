import { describe, expect, it } from "vitest";
import { useSignedInProduct } from "../support/product.ts";
import { freePort } from "../support/server.ts";

/**
 * Issue 26, item 16: a request the server refuses shows the server's own sentence once, not
 * "Validation error:" in front of it. A tool server on a loopback address is refused by this
 * product (no private hosts allowed), which answers 422 with what to change.
 */
const product = useSignedInProduct();

describe("a refused save", () => {
  it("shows the server's sentence once, without status words", { timeout: 120_000 }, async () => {
    const { page, server } = product;
    await page.goto(`${server.url}/mcp-servers`);
    await page.getByRole("button", { name: "New tool server" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New tool server" });
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Loopback");
    await dialog.getByRole("textbox", { name: "URL", exact: true }).fill(url);
    await dialog.getByRole("button", { name: "Save", exact: true }).click();

    const alert = dialog.getByRole("alert");
    await alert.waitFor({ timeout: 30_000 });
    const shown = (await alert.textContent()) ?? "";
    expect(shown).toMatch(new RegExp(`^Could not connect to the MCP server at ${url.replace(/[./]/g, "\\$&")}: `));
    expect(shown).not.toMatch(/Validation error|Request validation failed/);
    // Said once: in the alert, and nowhere else in the dialog.
    const dialogText = (await dialog.textContent()) ?? "";
    expect(dialogText.split("Could not connect to the MCP server").length - 1).toBe(1);
    // The dialog keeps what was typed, for a fix.
    expect(await dialog.getByRole("textbox", { name: "Name", exact: true }).inputValue()).toBe("Loopback");
  });
});
