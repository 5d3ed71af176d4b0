import type { Page } from "playwright-core";

/**
 * Stores Arabic, right to left and dark mode in the browser's appearance preferences, as the
 * settings menu would: the next page load shows them (the layout checks then run on that page).
 */
export async function storeArabicDarkMode(page: Page) {
  await page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem("parley.preferences") ?? "{}");
    localStorage.setItem(
      "parley.preferences",
      JSON.stringify({ ...stored, language: "ar", direction: "rtl", mode: "dark" }),
    );
  });
}

/** Picks the interface language in the topbar's appearance settings and closes them. */
export async function chooseLanguage(page: Page, language: string) {
  await page.getByRole("button", { name: "Open appearance settings" }).click();
  await page.getByRole("combobox", { name: "Language" }).click();
  await page.getByRole("option", { name: language }).click();
  await page.keyboard.press("Escape");
}
