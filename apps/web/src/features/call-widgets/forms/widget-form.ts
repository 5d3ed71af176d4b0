import { type CallWidget, CallWidgetForm, WidgetAppearance, WidgetLimits, WidgetOrigin } from "@parley/contract";
import { z } from "zod";

/**
 * The editor's form: the contract's widget fields, with the allowed origins typed one per line
 * and the optional background colour as a switch plus a colour.
 */
export const WidgetEditorForm = z.object({
  name: CallWidgetForm.shape.name,
  assistant_id: CallWidgetForm.shape.assistant_id,
  enabled: z.boolean(),
  appearance: WidgetAppearance.omit({ background_color: true }),
  custom_background: z.boolean(),
  background_color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  origins_text: z
    .string()
    .max(10_000)
    .transform((text, ctx) => {
      const lines = text
        .split(/[\s,]+/)
        .map((line) => line.trim())
        .filter(Boolean);
      const origins: string[] = [];
      for (const line of lines) {
        const parsed = WidgetOrigin.safeParse(line);
        if (!parsed.success) {
          ctx.addIssue({ code: "custom", message: `${line}: ${parsed.error.issues[0]?.message ?? ""}` });
          return z.NEVER;
        }
        if (!origins.includes(parsed.data)) origins.push(parsed.data);
      }
      return origins;
    }),
  limits: z.object({
    // Left empty: the widget's default share of the workspace's calls (null).
    max_concurrent_calls: z.preprocess(
      (value) => (value === "" || value === null || value === undefined ? null : Number(value)),
      WidgetLimits.shape.max_concurrent_calls,
    ),
    calls_per_visitor_per_hour: z.coerce.number().pipe(WidgetLimits.shape.calls_per_visitor_per_hour),
  }),
});
export type WidgetEditorInput = z.input<typeof WidgetEditorForm>;
export type WidgetEditorOutput = z.output<typeof WidgetEditorForm>;

export function formValues(widget: CallWidget): WidgetEditorInput {
  const { background_color, ...appearance } = widget.appearance;
  return {
    name: widget.name,
    assistant_id: widget.assistant_id,
    enabled: widget.enabled,
    appearance,
    custom_background: background_color !== null,
    background_color: background_color ?? "#ffffff",
    origins_text: widget.allowed_origins.join("\n"),
    limits: { ...widget.limits, max_concurrent_calls: widget.limits.max_concurrent_calls ?? "" },
  };
}

export function toUpdate(values: WidgetEditorOutput): CallWidgetForm {
  return {
    name: values.name,
    assistant_id: values.assistant_id,
    enabled: values.enabled,
    appearance: { ...values.appearance, background_color: values.custom_background ? values.background_color : null },
    allowed_origins: values.origins_text,
    limits: values.limits,
  };
}

/** What the preview draws from the form as it is typed; invalid fields keep the saved look. */
export function previewAppearance(values: WidgetEditorInput, saved: WidgetAppearance): WidgetAppearance {
  const candidate = {
    ...values.appearance,
    background_color: values.custom_background ? values.background_color : null,
  };
  const parsed = WidgetAppearance.safeParse(candidate);
  return parsed.success ? parsed.data : saved;
}

/** The embed script's absolute address (the API may live on another origin than the app). */
export function scriptUrlOf(apiBase: string, pageUrl: string): string {
  return new URL(`${apiBase}/widget/embed.js`, pageUrl).href;
}

/** The one script tag a site pastes before </body>. */
export function snippetOf(scriptUrl: string, publicKey: string): string {
  return `<script src="${scriptUrl}" data-key="${publicKey}" async></script>`;
}

const attribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/**
 * The preview's document: the real embed script with the unsaved appearance (data-preview) and the
 * panel open. As a srcdoc frame it shares Parley's origin, which every widget lets preview.
 */
export function previewDocument(scriptUrl: string, publicKey: string, appearance: WidgetAppearance, note: string) {
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;min-height:100vh;font:14px system-ui,sans-serif;color:#555;background:repeating-linear-gradient(45deg,#f4f4f4 0 12px,#ececec 12px 24px)}p{margin:16px}</style></head><body><p>${attribute(note)}</p><script src="${attribute(scriptUrl)}" data-key="${attribute(publicKey)}" data-preview="${attribute(JSON.stringify(appearance))}" data-open="true" async></script></body></html>`;
}
