// The build's server-side entry (build/prerender-pages.ts runs it in Node): draws a page the way
// the browser's first render draws it with the default preferences — for a visitor with no stored
// token (the HTML holds the page itself and boot.tsx hydrates it), or as the signed-in frame: a
// signed-in user's layout and page before their session's details are known (no name, no
// workspace, the page's data loading), which main.tsx shows until the app draws the page.
import type { EmotionCache } from "@emotion/cache";
import { StrictMode } from "react";
import { prerender } from "react-dom/static";
import { App } from "../app/app.tsx";
import { router } from "../app/router.tsx";
import { ltrCache } from "../app/style-cache.ts";
import type { AuthState } from "../lib/auth-context.ts";
import type { PrerenderedFor } from "../lib/prerendered-page.ts";

/** Signed in, with nothing about the user known yet: what the signed-in frame is drawn with. */
const FRAME_SESSION: AuthState = { status: "authenticated", user: null, workspace: null, workspaces: [] };

export interface PrerenderedPage {
  /** The markup that goes inside #root. */
  html: string;
  /** `<style data-emotion=…>` tags with exactly the rules that markup uses. */
  styles: string;
}

/**
 * The emotion rules a page's markup uses, as the style tags the browser's emotion cache adopts at
 * start (global rules one tag each, named `<key>-global <id>`; class rules in one `<key> <ids…>`).
 * The format is @emotion/server's, written out here rather than adding a dependency for 20 lines.
 */
function styleTags(cache: EmotionCache, html: string): string {
  const used = new Set(Array.from(html.matchAll(new RegExp(`${cache.key}-([a-zA-Z0-9_-]+)`, "g")), (m) => m[1]));
  const globals: string[] = [];
  const ids: string[] = [];
  let css = "";
  for (const [id, rules] of Object.entries(cache.inserted)) {
    if (typeof rules !== "string") continue;
    if (cache.registered[`${cache.key}-${id}`] === undefined) {
      globals.push(`<style data-emotion="${cache.key}-global ${id}">${rules}</style>`);
    } else if (used.has(id)) {
      ids.push(id);
      css += rules;
    }
  }
  return [...globals, `<style data-emotion="${cache.key} ${ids.join(" ")}">${css}</style>`].join("");
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

/** Renders the app at `url` (its lazy page and strings loaded first) to markup and its styles. */
export async function renderPage(url: string, drawnFor: PrerenderedFor): Promise<PrerenderedPage> {
  // In "compat" mode emotion keeps each rule in cache.inserted instead of writing <style> tags
  // into the markup beside the elements: styleTags() collects them for the head.
  ltrCache.compat = true;
  await router.navigate(url, { replace: true });
  const { prelude } = await prerender(
    <StrictMode>
      <App initialSession={drawnFor === "signed-in" ? FRAME_SESSION : undefined} />
    </StrictMode>,
    // Every boundary inline, however large: React otherwise sends a big one as a separate segment
    // that a script of its own moves into place, and this markup is shown before any script runs.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await readAll(prelude);
  if (html.includes("<script")) throw new Error(`${url}: the pre-rendered markup carries a script`);
  return { html, styles: styleTags(ltrCache, html) };
}
