// The entry: lets the browser paint what the HTML already holds (the pre-rendered page, the
// signed-in frame, or the spinner) before the app's code is fetched or evaluated, then starts the
// app. The HTML names boot.tsx's chunks and the page's own (vite.config.ts); they are fetched all
// at once as soon as the page has painted, so nothing competes with that paint for the link.
// The code is evaluated a part per task (APP_PARTS), with the browser free to handle input between
// them.
import { FORMS_LIVE_EVENT } from "./lib/forms-live.ts";
import { startHeadStarts } from "./lib/head-start.ts";
import { prerenderedUse, showFrame } from "./lib/prerendered-page.ts";
import { warmIntl } from "./lib/warm-intl.ts";

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const HINTS_PER_TASK = 8;

/**
 * Starts fetching the app's code the page's HTML names (`<template id="app-modules">`: boot.tsx's
 * chunks, and a page's own where it has its HTML), all at once. The build keeps these hints out of
 * the head (vite.config.ts) so that nothing but the page and its font is fetched before it paints.
 */
async function fetchAppModules() {
  const hints = document.getElementById("app-modules");
  if (!(hints instanceof HTMLTemplateElement)) return;
  // A few dozen at a time: starting each fetch costs the main thread a fraction of a millisecond,
  // and a page names up to a hundred chunks.
  const links = [...hints.content.children];
  for (let i = 0; i < links.length; i += HINTS_PER_TASK) {
    if (i > 0) await nextTask();
    document.head.append(...links.slice(i, i + HINTS_PER_TASK));
  }
}

/**
 * The app's code in the order it is evaluated, a part per task: the browser evaluates a dynamic
 * import's whole graph at once, and all of it in one task would hold up input for that long.
 * Apart from React's and MUI's entry points, each part is one of the app's own modules: a package
 * imported here whole would keep every export it has, where the app's named imports let the
 * bundler drop what is unused (React Router's would add 30 KB to every page).
 */
const APP_PARTS = [
  () => import("react-dom/client"),
  () => import("@mui/material/styles"),
  () => import("./i18n/index.ts"),
  () => import("./lib/router-library.ts"),
  () => import("./boot.tsx"),
];

async function start() {
  await nextTask();
  // Once the page has painted (nothing but the HTML, its font and this entry is fetched before):
  // the app's code, and a returning user's session and page data, which are asked for now so they
  // arrive while the code downloads rather than after it has run.
  void fetchAppModules();
  startHeadStarts(window.location.pathname);
  // The sign-in page formats no dates or numbers: only the signed-in pages are worth the warm-up.
  if (root?.dataset.session !== "visitor") {
    await nextTask();
    warmIntl();
  }
  for (const part of APP_PARTS) {
    await part();
    await nextTask();
  }
}

/**
 * A pre-rendered form can be filled in and sent before the app has taken it over. What is typed
 * then would be lost when React takes the fields over (their state starts empty), and a submit
 * would be the browser's own (a GET carrying the fields, the password too, in the address). Until
 * the page announces its forms are live (features/auth AuthCard), typing is recorded and submits
 * are held, neither reaching React; then the typed values are handed to the fields as input events
 * and the held form is submitted again.
 */
function holdEarlyInput() {
  const typed = new Map<string, string>();
  let pending: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;
  const record = (event: Event) => {
    const field = event.target;
    if (field instanceof HTMLInputElement && field.name) typed.set(field.name, field.value);
    event.stopPropagation();
  };
  const hold = (event: SubmitEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (event.target instanceof HTMLFormElement) pending = { form: event.target, submitter: event.submitter };
  };
  document.addEventListener("input", record, true);
  document.addEventListener("submit", hold, true);
  window.addEventListener(
    FORMS_LIVE_EVENT,
    () => {
      document.removeEventListener("input", record, true);
      document.removeEventListener("submit", hold, true);
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
      for (const [name, value] of typed) {
        const field = document.querySelector(`input[name="${CSS.escape(name)}"]`);
        if (!(field instanceof HTMLInputElement) || !setValue) continue;
        // React remembers the value it last saw in each field (its value tracker, which hydration
        // filled with what had been typed by then) and takes an input event as a change only when
        // the field now differs from it. Clear what it remembers (the instance's own setter), then
        // write the typed value past it (the prototype's), so the event below is a change to React.
        field.value = "";
        setValue.call(field, value);
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
      const held = pending;
      // A turn later, once React has rendered the fields' new state.
      if (held?.form.isConnected) setTimeout(() => held.form.requestSubmit(held.submitter), 0);
    },
    { once: true },
  );
}

const root = document.getElementById("root");
// Before the first paint (module scripts run once the HTML is parsed): a returning user's
// pre-rendered frame replaces the spinner at once; a visitor never sees it.
const prerendered = root ? prerenderedUse(root) : null;
if (root?.dataset.session === "visitor") holdEarlyInput();
if (root && prerendered === "frame") showFrame(root);
requestAnimationFrame(() => void start());
