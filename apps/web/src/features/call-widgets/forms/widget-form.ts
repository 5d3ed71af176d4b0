import { type CallWidget, CallWidgetForm, WIDGET_ORIGIN_TEXTS, WidgetAppearance, WidgetLimits } from "@parley/contract";
import type { Path } from "react-hook-form";
import { z } from "zod";
import { originsOf, parseOriginList } from "./origin-list.ts";

/**
 * The editor's form: the contract's widget fields, with the allowed origins typed one per line
 * (see origin-list.ts) and the optional background colour as a switch plus a colour.
 */
export const WidgetEditorForm = z.object({
  name: CallWidgetForm.shape.name,
  assistant_id: CallWidgetForm.shape.assistant_id,
  /** "" when the assistant answers; a squad's id when its first member does (issue 31). */
  squad_id: z.string().optional(),
  enabled: z.boolean(),
  appearance: WidgetAppearance.omit({ background_color: true }),
  custom_background: z.boolean(),
  background_color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  origins_text: z
    .string()
    .max(10_000)
    .transform((text, ctx) => {
      const entries = parseOriginList(text);
      const wrong = entries.find((entry) => entry.problem !== null);
      if (wrong?.problem) {
        ctx.addIssue({ code: "custom", message: `${wrong.text}: ${WIDGET_ORIGIN_TEXTS[wrong.problem]}` });
        return z.NEVER;
      }
      // The API's own bounds (how many sites), so the editor refuses what the server would.
      const origins = CallWidgetForm.shape.allowed_origins.safeParse(originsOf(entries));
      if (!origins.success) {
        ctx.addIssue({ code: "custom", message: origins.error.issues[0]?.message ?? "" });
        return z.NEVER;
      }
      return origins.data;
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
    squad_id: widget.squad_id ?? "",
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
    squad_id: values.squad_id || null,
    enabled: values.enabled,
    appearance: { ...values.appearance, background_color: values.custom_background ? values.background_color : null },
    allowed_origins: values.origins_text,
    limits: values.limits,
  };
}

/**
 * Where the API's field names (`allowed_origins.2`, `appearance.background_color`) are shown in the
 * editor, so a 422 puts each complaint beside its field; undefined for a field the editor lacks.
 */
export function editorFieldOf(apiField: string): Path<WidgetEditorInput> | undefined {
  if (apiField === "allowed_origins" || apiField.startsWith("allowed_origins.")) return "origins_text";
  if (apiField === "appearance.background_color") return "background_color";
  return EDITOR_FIELDS.find((field) => field === apiField);
}

/** Each API field of a 422 with the editor's field it is shown beside (see applyFieldErrors). */
export function placesOf(apiFields: readonly string[]): Partial<Record<string, Path<WidgetEditorInput>>> {
  return Object.fromEntries(apiFields.map((field) => [field, editorFieldOf(field)]));
}

const APPEARANCE_KEYS = Object.keys(
  WidgetEditorForm.shape.appearance.shape,
) as (keyof WidgetEditorInput["appearance"])[];
const EDITOR_FIELDS: readonly Path<WidgetEditorInput>[] = [
  "name",
  "assistant_id",
  "squad_id",
  "enabled",
  ...APPEARANCE_KEYS.map((key) => `appearance.${key}` as const),
  "limits.max_concurrent_calls",
  "limits.calls_per_visitor_per_hour",
];

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
