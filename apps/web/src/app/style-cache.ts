import createCache, { type EmotionCache } from "@emotion/cache";

/**
 * The left-to-right style cache. One instance for the page's life: at creation it adopts the
 * `<style data-emotion="mui …">` tags a pre-rendered page (prerender/) ships in its HTML, so their
 * rules are not inserted a second time when the page hydrates.
 */
export const ltrCache = createCache({ key: "mui" });

let rtlCache: EmotionCache | undefined;

/** The right-to-left cache once loaded (undefined before). */
export const loadedRtlCache = () => rtlCache;

/** The right-to-left style cache, loaded only when someone reads right to left. */
export async function loadRtlCache(): Promise<EmotionCache> {
  if (!rtlCache) {
    const [{ prefixer }, { default: rtlPlugin }] = await Promise.all([import("stylis"), import("stylis-plugin-rtl")]);
    rtlCache = createCache({ key: "muirtl", stylisPlugins: [prefixer, rtlPlugin] });
  }
  return rtlCache;
}
