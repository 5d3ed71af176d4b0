import { createElement, Suspense } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { lazyWithPreload } from "./lazy-with-preload.ts";

const Greeting = () => createElement("p", null, "Hello");
/** The markup inside a Suspense boundary whose fallback is "loading" (React's boundary comments dropped). */
const inSuspense = (component: React.ComponentType) =>
  renderToString(
    createElement(Suspense, { fallback: createElement("i", null, "loading") }, createElement(component)),
  ).replace(/<!--.*?-->/g, "");

describe("lazyWithPreload", () => {
  it("suspends like React.lazy until its code has loaded", () => {
    const Page = lazyWithPreload(async () => ({ default: Greeting }));
    expect(inSuspense(Page)).toMatch(/<i>loading<\/i>$/);
  });

  it("renders at once, with no fallback, once preloaded", async () => {
    const Page = lazyWithPreload(async () => ({ default: Greeting }));
    await Page.preload();
    expect(inSuspense(Page)).toBe("<p>Hello</p>");
  });

  it("loads the module once however often it is asked for", async () => {
    let loads = 0;
    const Page = lazyWithPreload(async () => {
      loads += 1;
      return { default: Greeting };
    });
    await Promise.all([Page.preload(), Page.preload()]);
    await Page.preload();
    expect(loads).toBe(1);
  });

  it("tries again after a failed download", async () => {
    let attempts = 0;
    const Page = lazyWithPreload(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error("network");
      return { default: Greeting };
    });
    await expect(Page.preload()).rejects.toThrow("network");
    await Page.preload();
    expect(attempts).toBe(2);
    expect(inSuspense(Page)).toBe("<p>Hello</p>");
  });
});
