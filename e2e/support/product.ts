import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser.ts";
import { type RunningServer, startServer } from "./server.ts";

export interface Product {
  server: RunningServer;
  browser: Browser;
}

/**
 * For one test file: starts the built product on a fresh database and a browser before the tests,
 * and stops both after. Read `product.server` and `product.browser` inside the tests.
 */
export function useProduct(env: Record<string, string> | (() => Promise<Record<string, string>>) = {}): Product {
  const product = {} as Product;
  beforeAll(async () => {
    const resolved = typeof env === "function" ? await env() : env;
    [product.server, product.browser] = await Promise.all([startServer(resolved), launchBrowser()]);
  });
  afterAll(async () => {
    await product.browser?.close();
    await product.server?.stop();
  });
  return product;
}
