import type { PublicWidgetConfig, WidgetAppearance } from "@parley/contract";
import { mountWidget } from "./view.ts";

/**
 * The embed script: `<script src="https://parley.example.com/api/v1/widget/embed.js" data-key="pw_…" async>`.
 * It reads its key from its own tag, asks its server for the widget's appearance (the server checks
 * this page's origin) and draws the call button. A refused page gets no button, only a console note.
 * The editor's preview adds data-preview (an unsaved appearance, JSON) and data-open.
 */
async function boot(script: HTMLScriptElement) {
  const key = script.dataset.key;
  if (!key) return console.error("Parley call widget: the script tag needs data-key.");
  const server = new URL(script.src, location.href).origin;
  let config: PublicWidgetConfig;
  try {
    const response = await fetch(`${server}/api/v1/widget/${encodeURIComponent(key)}`, { credentials: "omit" });
    const body = (await response.json()) as PublicWidgetConfig & { detail?: string };
    if (!response.ok) return console.warn(`Parley call widget: ${body.detail ?? response.status}`);
    config = body;
  } catch {
    // A refused origin gets no CORS headers, so the browser hides the answer from us.
    return console.warn(
      "Parley call widget: this website is not allowed to use this widget, or the server is unreachable.",
    );
  }
  if (script.dataset.preview) {
    config = { ...config, appearance: JSON.parse(script.dataset.preview) as WidgetAppearance };
  }
  const host = document.createElement("parley-call-widget");
  document.body.append(host);
  mountWidget(host, config, { server, publicKey: key, open: script.dataset.open === "true" });
}

const current = document.currentScript;
if (current instanceof HTMLScriptElement) void boot(current);
