import type { WidgetAppearance } from "@parley/contract";

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export function textOn(hex: string): string {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? "#111" : "#fff";
}

const palette = (a: WidgetAppearance, dark: boolean) => {
  const bg = a.background_color ?? (dark ? "#1e1e1e" : "#ffffff");
  const fg = textOn(bg);
  return `--bg:${bg};--fg:${fg};--soft:${fg === "#fff" ? "rgba(255,255,255,.1)" : "rgba(0,0,0,.06)"};--line:${fg === "#fff" ? "rgba(255,255,255,.2)" : "rgba(0,0,0,.15)"};`;
};

/**
 * The widget's whole style sheet, inside its shadow root: the host page's CSS does not reach in, and
 * `:host { all: initial }` stops inherited fonts and colours at the border.
 */
export function styleSheet(a: WidgetAppearance): string {
  const side = a.position === "bottom-left" ? "left" : "right";
  const themed =
    a.theme === "auto"
      ? `.root{${palette(a, false)}}@media (prefers-color-scheme:dark){.root{${palette(a, true)}}}`
      : `.root{${palette(a, a.theme === "dark")}}`;
  return `:host{all:initial}
${themed}
.root{--p:${a.primary_color};--on-p:${textOn(a.primary_color)};position:fixed;bottom:20px;${side}:20px;z-index:2147483000;display:flex;flex-direction:column;align-items:${side === "left" ? "flex-start" : "flex-end"};gap:12px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg)}
button{font:inherit;cursor:pointer;border:0;border-radius:999px;padding:10px 18px;min-height:44px}
button:focus-visible{outline:3px solid var(--p);outline-offset:2px}
.launcher,.primary{background:var(--p);color:var(--on-p);box-shadow:0 4px 14px rgba(0,0,0,.25);display:inline-flex;align-items:center;gap:8px;font-weight:600}
.launcher svg{width:20px;height:20px;fill:currentColor}
.panel{width:min(360px,calc(100vw - 40px));max-height:min(520px,calc(100vh - 110px));display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border:1px solid var(--line);border-radius:16px;box-shadow:0 12px 36px rgba(0,0,0,.3);overflow:hidden}
.panel[hidden]{display:none}
header{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:12px 12px 12px 16px;background:var(--p);color:var(--on-p)}
h2{margin:0;font-size:16px;font-weight:600}
.icon{background:transparent;color:inherit;padding:0;width:44px;font-size:22px;line-height:1}
.status{margin:10px 16px 0;min-height:20px;opacity:.8}
.error{margin:8px 16px 0;padding:8px 12px;border-radius:8px;background:#fdecea;color:#8a1c12}
.error[hidden]{display:none}

.log{margin:8px 0;padding:0 16px;overflow-y:auto;flex:1;min-height:60px;display:flex;flex-direction:column;gap:6px}
.log p{margin:0;padding:8px 12px;border-radius:12px;max-width:85%;background:var(--soft);align-self:flex-start;overflow-wrap:anywhere}
.log p[data-role=user]{align-self:flex-end;background:var(--p);color:var(--on-p)}
.log p[data-final=false]{font-style:italic}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{display:flex;gap:8px;padding:12px 16px 16px;justify-content:flex-end}
footer [hidden]{display:none}
.secondary{background:var(--soft);color:var(--fg)}
.secondary[aria-pressed=true]{background:var(--fg);color:var(--bg)}
.danger{background:#c62828;color:#fff}
@media (prefers-reduced-motion:no-preference){.launcher[data-live=true]{animation:pulse 1.6s ease-in-out infinite}}
@keyframes pulse{50%{box-shadow:0 0 0 8px rgba(0,0,0,.08)}}`;
}
