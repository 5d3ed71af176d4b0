import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Waits until nothing on the page moves any more: dialogs and notices fade in and out, and a colour
 * measured mid-fade (text blended with the backdrop) fails contrast though the settled page passes.
 * Spinners and pulsing placeholders loop forever: only animations that end are waited for.
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
  );
}

/** Runs axe-core in the page, once it has settled, and returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await settled(page);
  // Evaluated through the browser's debugging protocol, which the app's Content-Security-Policy
  // (no inline scripts) does not govern, unlike a <script> tag added to the page.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
