import { z } from "zod";

/** Spec §3 "interface preference state", persisted across reloads. */
export const Preferences = z.object({
  direction: z.enum(["ltr", "rtl"]).default("ltr"),
  mode: z.enum(["light", "dark"]).default("light"),
  themeName: z.enum(["green", "blue", "purple", "orange", "teal", "red"]).default("green"),
  sidebarWidth: z.number().default(270),
  miniSidebarWidth: z.number().default(87),
  topbarHeight: z.number().default(70),
  layout: z.enum(["boxed", "full"]).default("boxed"),
  collapsed: z.boolean().default(false),
  sidebarHover: z.boolean().default(false),
  mobileSidebar: z.boolean().default(false),
  horizontal: z.boolean().default(false),
  language: z.string().default("en"),
  cardShadow: z.boolean().default(true),
  borderRadius: z.number().min(0).max(24).default(5),
});
export type Preferences = z.infer<typeof Preferences>;

/** Each colour keeps a 4.5:1 contrast with white text and on white paper (WCAG AA). */
export const THEME_COLOURS: Record<Preferences["themeName"], string> = {
  green: "#0f7a52",
  blue: "#1e6fd9",
  purple: "#7b4bd6",
  orange: "#b85c00",
  teal: "#0b7480",
  red: "#d1363f",
};

const STORAGE_KEY = "parley.preferences";

export function loadPreferences(): Preferences {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}") as unknown;
    const parsed = Preferences.safeParse(stored);
    return parsed.success ? parsed.data : Preferences.parse({});
  } catch {
    return Preferences.parse({});
  }
}

/** Transient flags (hover, mobile drawer) are not worth restoring after a reload. */
export function savePreferences(preferences: Preferences) {
  const { sidebarHover: _hover, mobileSidebar: _mobile, ...lasting } = preferences;
  localStorage.setItem(STORAGE_KEY, JSON.stringify(lasting));
}
