import { DEFAULT_PREFERENCES, loadPreferences, type Preferences } from "../app/customizer/preferences.ts";
import { pathMatches } from "./page-pattern.ts";
import { decodeToken, isExpired, tokenStorage } from "./token-storage.ts";

/**
 * Who a pre-rendered page was drawn for (build/prerender-pages.ts writes it as #root's
 * `data-session`): a visitor with no session (the sign-in page, hydrated as it is), or a signed-in
 * user whose session is not known yet (the signed-in frame: layout and page heading, no user data).
 */
export type PrerenderedFor = "visitor" | "signed-in";

/**
 * What this page load does with the markup the build put in #root:
 * - "hydrate": the visitor's first render draws exactly that page, so React adopts it;
 * - "frame": it is the signed-in frame this user will see, shown until the app has the session and
 *   the page's code and draws the same page over it;
 * - null: this visitor would see something else (a session, another language or look), so the
 *   HTML's spinner shows until the app draws.
 */
export type PrerenderedUse = "hydrate" | "frame" | null;

/** What the sign-in page's markup assumes of the look; any other stored choice draws differently. */
const VISITOR_LOOK = ["direction", "mode", "themeName", "language", "borderRadius", "cardShadow"] as const;
/** The signed-in frame also assumes the default layout and sidebar. */
const LOOK: Record<PrerenderedFor, readonly (keyof Preferences)[]> = {
  visitor: VISITOR_LOOK,
  "signed-in": [
    ...VISITOR_LOOK,
    "layout",
    "sidebarWidth",
    "miniSidebarWidth",
    "topbarHeight",
    "collapsed",
    "horizontal",
  ],
};

const isPrerenderedFor = (value: string | undefined): value is PrerenderedFor =>
  value === "visitor" || value === "signed-in";

/** An access token that a session restore can use as it is (not expired, readable). */
function hasUsableToken(): boolean {
  const token = tokenStorage.getAccessToken();
  const claims = token ? decodeToken(token) : null;
  return claims !== null && !isExpired(claims);
}

export function prerenderedUse(root: HTMLElement, pathname = window.location.pathname): PrerenderedUse {
  const drawnFor = root.dataset.session;
  // A page with an id in its path was drawn for its pattern ("/workflows/:workflowId"), the id unknown.
  const drawnAt = root.dataset.prerendered;
  if (drawnAt === undefined || !pathMatches(drawnAt, pathname) || !isPrerenderedFor(drawnFor)) return null;
  const preferences = loadPreferences();
  if (!LOOK[drawnFor].every((key) => preferences[key] === DEFAULT_PREFERENCES[key])) return null;
  if (drawnFor === "visitor") return tokenStorage.getAccessToken() ? null : "hydrate";
  return hasUsableToken() ? "frame" : null;
}

/** True while the signed-in frame is on screen (showFrame showed it; the app has not drawn over it). */
export function frameOnScreen(root: HTMLElement): boolean {
  return root.querySelector(":scope > [data-frame]:not([hidden])") !== null;
}

/**
 * Shows the signed-in frame in place of the HTML's spinner (both are in #root until then), and
 * keeps a click made on it. The frame is a picture of the page until the app draws the page over
 * it, in the same places (boot.tsx); a click on it then would do nothing, or, on a link, load the
 * whole app again. So it is held, and once the app's page has replaced the frame it is replayed on
 * what the app drew at that point: the button opens its dialog, the link navigates in the app.
 * A click meant for a new tab or window (a modifier key, another button) goes its own way.
 */
export function showFrame(root: HTMLElement) {
  const frame = root.querySelector<HTMLElement>(":scope > [data-frame]");
  if (!frame) return;
  frame.hidden = false;
  root.querySelector(":scope > .boot")?.remove();
  let held: { pageX: number; pageY: number } | null = null;
  const hold = (event: MouseEvent) => {
    if (!(event.target instanceof Node) || !frame.contains(event.target)) return;
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    held = { pageX: event.pageX, pageY: event.pageY };
  };
  document.addEventListener("click", hold, true);
  new MutationObserver((_records, observer) => {
    if (frame.isConnected) return;
    observer.disconnect();
    document.removeEventListener("click", hold, true);
    const click = held;
    if (!click) return;
    // A frame later, once the app's page has been laid out where the frame was.
    requestAnimationFrame(() => {
      const target = document.elementFromPoint(click.pageX - window.scrollX, click.pageY - window.scrollY);
      target?.closest<HTMLElement>("a[href], button, [role='button']")?.click();
    });
  }).observe(root, { childList: true });
}
