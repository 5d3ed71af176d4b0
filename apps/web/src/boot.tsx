import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { App } from "./app/app.tsx";
import { preloadRoute } from "./app/router.tsx";
import { restoreSession } from "./features/auth/restore-session.ts";
import "./i18n/index.ts";
import type { AuthState } from "./lib/auth-context.ts";
import { frameOnScreen, prerenderedUse } from "./lib/prerendered-page.ts";

// The app proper, imported by main.tsx once the browser has painted what the HTML holds.
const root = document.getElementById("root");
if (!root) throw new Error("#root is missing from index.html");

const app = (initialSession?: AuthState) => (
  <StrictMode>
    <App initialSession={initialSession} />
  </StrictMode>
);

async function start(element: HTMLElement) {
  // The first render is a transition: React renders it in slices, yielding to the browser between
  // them, instead of one long task that holds up input while the page is already on screen.
  if (prerenderedUse(element) === "hydrate") {
    startTransition(() => {
      hydrateRoot(element, app());
    });
    return;
  }
  let initialSession: AuthState | undefined;
  if (frameOnScreen(element)) {
    // The signed-in frame (main.tsx showed it) stays until the app can draw the page over it: with
    // the session restored (its requests were started by main.tsx) and the page's code loaded, the
    // first render is that page, not a spinner between the frame and the page.
    // A chunk that fails to download is the page's own error to show, as on any other load.
    const [session] = await Promise.all([
      restoreSession(),
      preloadRoute(window.location.pathname).catch(() => undefined),
    ]);
    initialSession = session ?? undefined;
  }
  const reactRoot = createRoot(element);
  startTransition(() => reactRoot.render(app(initialSession)));
}

void start(root);
