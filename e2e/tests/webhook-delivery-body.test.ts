import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";

// The webhook delivery log shows the request body each delivery POSTed, the bytes' content a
// receiver got, so a developer can see what their server was sent beside its answer.

const AR = JSON.parse(
  readFileSync(new URL("../../apps/web/src/features/webhooks/locales/ar.json", import.meta.url), "utf8"),
) as Record<"deliveriesNamed" | "showBodyNamed" | "bodyOf", string>;

// The receiver listens on loopback, which the product only reaches when allowed.
const product = useSignedInProduct(
  { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" },
  { permissions: ["clipboard-read", "clipboard-write"] },
);
let receiver: Server;
let receiverUrl = "";
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/parley`;
});

afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("webhook delivery log", () => {
  it("shows the body a delivery sent, as the receiver got it, and copies it", async () => {
    const { server, token, page } = product;
    const endpoint = await apiCall<{ id: string }>(server.url, token, "POST", "/webhooks", {
      url: receiverUrl,
      events: ["call.started"],
    });
    await apiCall(server.url, token, "POST", `/webhooks/${endpoint.id}/test`);
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(1);
    const sent = JSON.parse(received[0] ?? "{}") as Record<string, unknown>;

    await page.goto(`${server.url}/integrations`);
    await page.getByRole("button", { name: `Delivery log of ${receiverUrl}` }).click();
    const log = page.getByRole("dialog", { name: /Delivery log/ });
    await log.getByText("Succeeded").waitFor();
    const show = log.getByRole("button", { name: "Show body sent for test" });
    expect(await show.getAttribute("aria-expanded")).toBe("false");
    await show.click();
    const body = log.getByRole("region", { name: "Body sent for test" });
    await body.waitFor();
    const shown = JSON.parse((await body.locator("pre").textContent()) ?? "{}") as Record<string, unknown>;
    expect(shown).toEqual(sent);
    expect(shown.type).toBe("test");
    expect(await seriousViolations(page)).toEqual([]);

    await body.getByRole("button", { name: "Copy body" }).click();
    await page.getByText("Body copied to the clipboard").waitFor();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(sent);

    await log.getByRole("button", { name: "Hide body" }).click();
    await body.waitFor({ state: "detached" });
  }, 180_000);

  it("reads right to left in Arabic and in dark mode without contrast or naming problems", async () => {
    const { server, page } = product;
    await storeArabicDarkMode(page);
    await page.goto(`${server.url}/integrations`);
    await page.getByRole("button", { name: AR.deliveriesNamed.replace("{{url}}", receiverUrl) }).click();
    await page
      .getByRole("button", { name: AR.showBodyNamed.replace("{{event}}", "test") })
      .first()
      .click();
    await page
      .getByRole("region", { name: AR.bodyOf.replace("{{event}}", "test") })
      .first()
      .waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await seriousViolations(page)).toEqual([]);
  }, 180_000);
});
