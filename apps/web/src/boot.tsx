import { STORAGE_KEYS } from "@parley/contract/constants";
import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { DEFAULT_PREFERENCES, loadPreferences } from "./app/customizer/preferences.ts";
import "./i18n/index.ts";

// The app proper, imported by main.tsx once the browser has painted what the HTML holds.
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

/**
 * The build pre-renders some pages (build/prerender-pages.ts) as a visitor with no stored session
 * and the default look sees them. This visitor's first render draws the same markup only then.
 */
function drawsAsPrerendered(element: HTMLElement): boolean {
  if (element.dataset.prerendered !== window.location.pathname) return false;
  if (localStorage.getItem(STORAGE_KEYS.accessToken)) return false;
  const preferences = loadPreferences();
  const look = ["direction", "mode", "themeName", "language", "borderRadius", "cardShadow"] as const;
  return look.every((key) => preferences[key] === DEFAULT_PREFERENCES[key]);
}

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// The first render is a transition: React renders it in slices, yielding to the browser between
// them, instead of one long task that holds up input while the page is already on screen.
if (drawsAsPrerendered(root)) {
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  const reactRoot = createRoot(root);
  startTransition(() => reactRoot.render(app));
}
