import { z } from "zod";
import { timestamps } from "./resource-fields.ts";

/**
 * Call widgets (issue 16): a button any allowed website embeds with one script tag, which runs a
 * browser voice call with one assistant and no sign-in. The workspace manages widgets under
 * /call-widgets (signed in); the embed script talks to the public /widget/{public_key} routes, which
 * check the page's Origin against the widget's allowed origins.
 */

/** Public keys look like `pw_…`: not a secret (they sit in every embedding page), but rotatable. */
export const WIDGET_KEY_PREFIX = "pw_";
/** The embed script, under the API base path. */
export const WIDGET_SCRIPT_PATH = "/api/v1/widget/embed.js";
export const WIDGET_LANGUAGES = ["en", "ar", "es", "fr", "de", "hi", "pt"] as const;
export const WidgetLanguage = z.enum(WIDGET_LANGUAGES);
export type WidgetLanguage = z.infer<typeof WidgetLanguage>;
export const WidgetPosition = z.enum(["bottom-right", "bottom-left"]);
export type WidgetPosition = z.infer<typeof WidgetPosition>;
/** auto follows the visitor's system setting (prefers-color-scheme). */
export const WidgetTheme = z.enum(["light", "dark", "auto"]);
export type WidgetTheme = z.infer<typeof WidgetTheme>;

/** What a visitor is told when the widget may not start a call (status in brackets). */
export const WIDGET_TEXTS = {
  /** 404: unknown key, rotated key, or a turned-off widget. */
  unavailable: "This call widget is not available.",
  /** 403: the page's origin is not in the widget's allowed origins. */
  originRefused: "This website is not allowed to use this call widget.",
  /** 429: the widget's own concurrent-call limit. */
  widgetBusy: (limit: number) => `All ${limit} lines of this call widget are busy. Please try again in a few minutes.`,
  /** 429: calls per visitor (IP address) per hour. */
  visitorLimit: (limit: number) =>
    `You have started ${limit} calls from this widget in the last hour, the most it allows. Please try again later.`,
} as const;

const Color = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, "Use a colour like #2e7d32");
const Label = (max: number) => z.string().trim().min(1, "Required").max(max);

export const WidgetAppearance = z.object({
  primary_color: Color,
  /** The panel's background; null: white in light theme, near-black in dark. */
  background_color: Color.nullable(),
  position: WidgetPosition,
  button_label: Label(40),
  panel_title: Label(60),
  start_label: Label(40),
  end_label: Label(40),
  /** Language of the widget's own texts (microphone problems, status, mute). */
  language: WidgetLanguage,
  theme: WidgetTheme,
});
export type WidgetAppearance = z.infer<typeof WidgetAppearance>;

export const DEFAULT_WIDGET_APPEARANCE: WidgetAppearance = {
  primary_color: "#2e7d32",
  background_color: null,
  position: "bottom-right",
  button_label: "Talk to us",
  panel_title: "Voice assistant",
  start_label: "Start call",
  end_label: "End call",
  language: "en",
  theme: "auto",
};

/** A DNS name's label as a site's origin carries it: letters, digits and inner hyphens (punycode for IDNs). */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An IPv6 literal in brackets, or a name whose every label is a plain one (an IPv4 address is one too). */
function plainHost(hostname: string): boolean {
  if (hostname.startsWith("[")) return hostname.endsWith("]");
  return hostname.length <= 253 && hostname.split(".").every((label) => HOST_LABEL.test(label));
}

export const WIDGET_ORIGIN_TEXTS = {
  wildcard: "Wildcards are not allowed: list each site's exact origin, such as https://shop.example.com",
  notOrigin: "Enter an origin such as https://www.example.com (scheme and host, no path)",
  spaces: "An origin has no spaces: put each site on its own line",
} as const;
export type WidgetOriginProblem = keyof typeof WIDGET_ORIGIN_TEXTS;

/** An origin as it is stored and compared: no trailing slash, lower case (browsers send it so). */
export const normalizeWidgetOrigin = (value: string) => value.trim().replace(/\/$/, "").toLowerCase();

/**
 * Why a normalised value is not an exact origin, or null when it is one. The editor names the
 * problem of each site it lists; the API answers the same sentence.
 */
export function widgetOriginProblem(value: string): WidgetOriginProblem | null {
  if (value.includes("*")) return "wildcard";
  // A space inside is most often two sites typed on one line; URL parsing would only say "not an origin".
  if (/\s/.test(value)) return "spaces";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "notOrigin";
  }
  const web = url.protocol === "https:" || url.protocol === "http:";
  return web && url.origin === value && plainHost(url.hostname) ? null : "notOrigin";
}

/**
 * An exact origin (scheme, host and optional port, no path): `https://shop.example.com`, as a
 * browser sends it in Origin. A trailing slash is dropped and capitals are lowered (browsers send
 * scheme and host in lower case); wildcards and anything else a browser would not send are refused.
 */
export const WidgetOrigin = z
  .string()
  .trim()
  .max(200)
  .transform(normalizeWidgetOrigin)
  .superRefine((value, ctx) => {
    const problem = widgetOriginProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: WIDGET_ORIGIN_TEXTS[problem] });
  });

export const WidgetLimits = z.object({
  /**
   * Calls of this widget running at once (the workspace's own limit applies as well); null: half the
   * workspace's concurrent calls, at least one, so one public widget cannot take every line.
   */
  max_concurrent_calls: z.number().int().min(1).max(1000).nullable(),
  /** Calls one visitor (IP address) may start per rolling hour. */
  calls_per_visitor_per_hour: z.number().int().min(1).max(1000),
});
export type WidgetLimits = z.infer<typeof WidgetLimits>;
export const DEFAULT_WIDGET_LIMITS: WidgetLimits = { max_concurrent_calls: null, calls_per_visitor_per_hour: 10 };

/** The concurrent calls a widget may hold: its own number, or half the workspace's (at least one). */
export function widgetCallCap(limits: Pick<WidgetLimits, "max_concurrent_calls">, workspaceLimit: number): number {
  return limits.max_concurrent_calls ?? Math.max(1, Math.floor(workspaceLimit / 2));
}

export const CallWidget = z.object({
  id: z.string(),
  name: z.string(),
  assistant_id: z.string(),
  /** The squad whose first member answers instead of the assistant (issue 31); null: the assistant. */
  squad_id: z.string().nullable().optional(),
  public_key: z.string(),
  appearance: WidgetAppearance,
  /** Empty: every site is refused (the editor's preview still works). */
  allowed_origins: z.array(z.string()),
  limits: WidgetLimits,
  enabled: z.boolean(),
  ...timestamps,
});
export type CallWidget = z.infer<typeof CallWidget>;

export const CallWidgetList = z.object({ data: z.array(CallWidget) });
export type CallWidgetList = z.infer<typeof CallWidgetList>;

const WidgetFields = {
  name: z.string().trim().min(1, "Name is required").max(100),
  assistant_id: z.uuid("Choose an assistant"),
  squad_id: z.uuid().nullable(),
  appearance: WidgetAppearance,
  allowed_origins: z.array(WidgetOrigin).max(50),
  limits: WidgetLimits,
  enabled: z.boolean(),
};

/** POST /call-widgets: name and assistant; the rest takes the defaults above. */
export const CallWidgetCreate = z.object({
  name: WidgetFields.name,
  assistant_id: WidgetFields.assistant_id,
  squad_id: WidgetFields.squad_id.optional(),
  appearance: WidgetFields.appearance.optional(),
  allowed_origins: WidgetFields.allowed_origins.optional(),
  limits: WidgetFields.limits.optional(),
  enabled: WidgetFields.enabled.optional(),
});
export type CallWidgetCreate = z.infer<typeof CallWidgetCreate>;

/** PATCH /call-widgets/{id}: what it names is replaced whole (appearance and limits as objects). */
export const CallWidgetUpdate = z.object(WidgetFields).partial();
export type CallWidgetUpdate = z.infer<typeof CallWidgetUpdate>;
/** The editor's form: every field at once. */
export const CallWidgetForm = z.object(WidgetFields);
export type CallWidgetForm = z.infer<typeof CallWidgetForm>;

// ── public routes (the embed script) ────────────────────────────────────────

/** What a public key can look like (today's keys are `pw_` and 32 base64url characters). */
const WIDGET_KEY_SHAPE = /^pw_[A-Za-z0-9_-]{16,64}$/;
export const isWidgetKeyShape = (key: string) => WIDGET_KEY_SHAPE.test(key);

/**
 * The key in a public route's address. Any text is taken: a malformed key names no widget, so it
 * is answered like an unknown one (404 "This call widget is not available."), not with a 422 that
 * would tell a page more than a wrong key does.
 */
export const WidgetKeyParam = z.object({ key: z.string() });

/** GET /widget/{key}: what the script needs to draw itself. */
export const PublicWidgetConfig = z.object({
  appearance: WidgetAppearance,
  assistant_name: z.string(),
});
export type PublicWidgetConfig = z.infer<typeof PublicWidgetConfig>;

/** POST /widget/{key}/calls → 201: join `url?token=access_token` (the realtime socket) within 60 s. */
export const WidgetCallStarted = z.object({
  call_id: z.string(),
  room_name: z.string(),
  access_token: z.string(),
  url: z.string(),
});
export type WidgetCallStarted = z.infer<typeof WidgetCallStarted>;
