import { MicrophoneError } from "@parley/browser-audio";
import type { PublicWidgetConfig } from "@parley/contract";
import { type AssistantState, type CallStatus, type CallView, RefusedError, WidgetCall } from "./call.ts";
import { styleSheet } from "./styles.ts";
import { isRightToLeft, textsFor } from "./texts.ts";
import type { Line } from "./transcript.ts";

type Attrs = Record<string, string>;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

const MIC_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11z"/></svg>';

export interface MountOptions {
  server: string;
  publicKey: string;
  /** Open the panel at once (the editor's preview). */
  open?: boolean;
}

/**
 * Draws the call button and its panel in a shadow root on `host`, and runs calls from them. The
 * host carries data-status and data-played-ms, which the page (and the browser tests) can read.
 */
export function mountWidget(host: HTMLElement, config: PublicWidgetConfig, options: MountOptions) {
  const a = config.appearance;
  const t = textsFor(a.language);
  const shadow = host.attachShadow({ mode: "open" });
  const style = el("style");
  style.textContent = styleSheet(a);
  const root = el("div", { class: "root", dir: isRightToLeft(a.language) ? "rtl" : "ltr", lang: a.language });
  const panel = el("section", { class: "panel", id: "panel", role: "dialog", "aria-label": a.panel_title });
  panel.hidden = !options.open;
  const header = el("header");
  const close = el("button", { class: "icon", type: "button", "aria-label": t.close }, "×");
  header.append(el("h2", {}, a.panel_title), close);
  const status = el("p", { class: "status", role: "status" }, config.assistant_name);
  const error = el("p", { class: "error", role: "alert" });
  error.hidden = true;
  const log = el("div", { class: "log", role: "log", "aria-label": t.conversation });
  const start = el("button", { class: "primary", type: "button" }, a.start_label);
  const mute = el("button", { class: "secondary", type: "button", "aria-pressed": "false" }, t.mute);
  const end = el("button", { class: "danger", type: "button" }, a.end_label);
  const footer = el("footer");
  footer.append(mute, end, start);
  panel.append(header, status, error, log, footer);
  const launcher = el("button", {
    class: "launcher",
    type: "button",
    "aria-expanded": String(!panel.hidden),
    "aria-controls": "panel",
  });
  launcher.innerHTML = MIC_ICON;
  launcher.append(a.button_label);
  root.append(panel, launcher);
  shadow.append(style, root);

  const inCall = (live: boolean) => {
    start.hidden = live;
    mute.hidden = !live;
    end.hidden = !live;
    launcher.dataset.live = String(live);
  };
  inCall(false);
  const problemText = (problem: unknown) => {
    if (problem instanceof MicrophoneError) return t.mic[problem.problem];
    if (problem instanceof RefusedError && problem.message) return problem.message;
    return t.failed;
  };
  const stateText: Record<AssistantState, string> = {
    listening: t.listening,
    thinking: t.thinking,
    speaking: t.speaking,
  };

  const view: CallView = {
    status(next: CallStatus, problem?: unknown) {
      host.dataset.status = next;
      inCall(next === "connecting" || next === "connected");
      error.hidden = next !== "failed";
      error.textContent = next === "failed" ? problemText(problem) : "";
      if (next === "connecting") status.textContent = t.connecting;
      else if (next === "ended") status.textContent = t.ended;
      else if (next !== "connected") status.textContent = config.assistant_name;
      if (next === "ended" || next === "failed") {
        mute.setAttribute("aria-pressed", "false");
        mute.textContent = t.mute;
        start.focus();
      }
    },
    assistant(state) {
      if (state) status.textContent = stateText[state];
    },
    lines(lines: Line[]) {
      log.replaceChildren(
        ...lines.map((line) => {
          // Who said it, for screen readers; the bubbles' sides say it to the eye.
          const item = el("p", { "data-role": line.role, "data-final": String(line.final) });
          const speaker = el("span", { class: "sr" }, `${line.role === "user" ? t.you : config.assistant_name}: `);
          item.append(speaker, line.text);
          return item;
        }),
      );
      log.scrollTop = log.scrollHeight;
    },
    played(ms) {
      host.dataset.playedMs = String(ms);
    },
  };
  host.dataset.status = "idle";
  const call = new WidgetCall(options.server, options.publicKey, view);

  const toggle = (open: boolean) => {
    panel.hidden = !open;
    launcher.setAttribute("aria-expanded", String(open));
    (open ? (start.hidden ? end : start) : launcher).focus();
  };
  launcher.addEventListener("click", () => toggle(panel.hidden));
  close.addEventListener("click", () => toggle(false));
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") toggle(false);
  });
  start.addEventListener("click", () => void call.start());
  end.addEventListener("click", () => call.end());
  mute.addEventListener("click", () => {
    const muted = call.toggleMute();
    mute.setAttribute("aria-pressed", String(muted));
    mute.textContent = muted ? t.unmute : t.mute;
  });
}
