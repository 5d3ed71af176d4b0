import { afterEach, describe, expect, it } from "vitest";
import { adminToken } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { openHomePage } from "../support/browser.ts";
import { startBrowserCall } from "../support/browser-call.ts";
import { useProduct } from "../support/product.ts";
import { freePort } from "../support/server.ts";

// Issue 27: a browser test call whose model cannot be reached no longer shows "Thinking" forever:
// the panel says the model is not answering and, once the call gives up, that the assistant could
// not continue because the model failed, and the call ends on that reason.

const product = useProduct(
  { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
  { microphone: "What time do you open tomorrow?" },
);

describe("a live call whose model is down", () => {
  afterEach(async () => {
    await Promise.all(product.browser.contexts().map((context) => context.close()));
  });

  it("says the model failed instead of thinking forever", { timeout: 180_000 }, async () => {
    const token = await adminToken(product.server);
    // Nothing listens on this port: every model request is refused.
    const deadModel = `http://127.0.0.1:${await freePort()}/v1`;
    const assistantId = await createOfflineAssistant(product.server, token, deadModel, {
      name: "Broken desk",
      first_message: "Hello, this is the front desk.",
    });
    const page = await openHomePage(product.browser, product.server);
    page.setDefaultTimeout(120_000);
    await startBrowserCall(page, product.server, assistantId);
    const status = page.getByTestId("call-fault");
    await status.getByText("The assistant could not continue: the model failed").waitFor();
    await page.getByText("The call ended: the model failed.").waitFor();
    expect(await status.getAttribute("role")).toBe("status");
  });
});
