import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { adminToken } from "./api.ts";
import { launchBrowserWithMicrophone, signInToHome } from "./browser.ts";
import { type RunningServer, startServer } from "./server.ts";
import { sharedBrowser } from "./shared-browser.ts";

export interface Product {
  server: RunningServer;
  browser: Browser;
}

/** The server's environment, or a function giving it once the test's own servers have started. */
export type ProductEnv = Record<string, string> | (() => Promise<Record<string, string>>);

export interface ProductOptions {
  /** What the browser's fake microphone says, for files that hold calls (support/browser.ts). */
  microphone?: string;
}

// Starting the server copies its data and waits for it to answer: on two busy cores that alone
// can take most of the suite's hook time, so the start gets two minutes.
const START_TIMEOUT_MS = 120_000;

/**
 * For one test file: starts the built product on a fresh database and a browser before the tests,
 * and stops both after. Read `product.server` and `product.browser` inside the tests. The browser
 * is the suite's shared Chromium (support/shared-browser.ts) unless the file needs a microphone;
 * closing it then closes this file's contexts.
 */
export function useProduct(env: ProductEnv = {}, options: ProductOptions = {}): Product {
  const product = {} as Product;
  beforeAll(async () => {
    const resolved = typeof env === "function" ? await env() : env;
    const browser = options.microphone ? launchBrowserWithMicrophone(options.microphone) : sharedBrowser();
    [product.server, product.browser] = await Promise.all([startServer(resolved), browser]);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await product.browser?.close();
    await product.server?.stop();
  });
  return product;
}

export interface SignedInProduct extends Product {
  /** One tab signed in as the administrator, which the file's tests share in their order. */
  page: Page;
  /** The administrator's API token, for arranging data. */
  token: string;
}

export interface SignedInPageOptions extends ProductOptions {
  viewport?: { width: number; height: number };
  /** Browser permissions granted to the product's origin (e.g. the clipboard). */
  permissions?: string[];
}

/**
 * useProduct, plus one tab signed in as the administrator on the home page and the
 * administrator's API token, both ready before the file's own beforeAll hooks run.
 */
export function useSignedInProduct(env: ProductEnv = {}, options: SignedInPageOptions = {}): SignedInProduct {
  const product = useProduct(env, options) as SignedInProduct;
  beforeAll(async () => {
    const context = await product.browser.newContext(options.viewport ? { viewport: options.viewport } : {});
    if (options.permissions) await context.grantPermissions(options.permissions, { origin: product.server.url });
    product.page = await context.newPage();
    // Two busy cores run this suite beside builds: waits are for conditions, with room to spare.
    product.page.setDefaultTimeout(60_000);
    [product.token] = await Promise.all([adminToken(product.server), signInToHome(product.page, product.server)]);
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await product.page?.context().close();
  });
  return product;
}
