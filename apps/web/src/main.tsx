// The entry: lets the browser paint what the HTML already holds (the pre-rendered page, or the
// spinner) before the app's code is evaluated, then starts the app. The HTML hints boot.tsx's
// chunks (vite.config.ts), so they download while the page paints; evaluating them first would
// hold that paint (the largest text of a pre-rendered page) behind all of the app's JavaScript.
// The code is evaluated in three tasks rather than one (React; MUI and emotion; the app), with
// the browser free to handle input between them.
import { FORMS_LIVE_EVENT } from "./lib/forms-live.ts";
import { startHeadStarts } from "./lib/head-start.ts";

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function start() {
  await nextTask();
  await import("react-dom/client");
  await nextTask();
  await import("@mui/material/styles");
  await nextTask();
  await import("./boot.tsx");
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

if (document.getElementById("root")?.dataset.prerendered) holdEarlyInput();
// A returning user's session and page data are asked for now, while the app's code downloads.
startHeadStarts(window.location.pathname);
requestAnimationFrame(() => void start());
