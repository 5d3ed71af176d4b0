const THEME_NAMES = ["green", "blue", "purple", "orange", "teal", "red"] as const;

/** Spec §3 "interface preference state", persisted across reloads. */
export interface Preferences {
  direction: "ltr" | "rtl";
  mode: "light" | "dark";
  themeName: (typeof THEME_NAMES)[number];
  sidebarWidth: number;
  miniSidebarWidth: number;
  topbarHeight: number;
  layout: "boxed" | "full";
  collapsed: boolean;
  sidebarHover: boolean;
  mobileSidebar: boolean;
  horizontal: boolean;
  language: string;
  cardShadow: boolean;
  borderRadius: number;
}

export const DEFAULT_PREFERENCES: Readonly<Preferences> = {
  direction: "ltr",
  mode: "light",
  themeName: "green",
  sidebarWidth: 270,
  miniSidebarWidth: 87,
  topbarHeight: 70,
  layout: "boxed",
  collapsed: false,
  sidebarHover: false,
  mobileSidebar: false,
  horizontal: false,
  language: "en",
  cardShadow: true,
  borderRadius: 5,
};

const oneOf =
  <T extends string>(...allowed: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === "string" && (allowed as readonly string[]).includes(value);
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);
const isBoolean = (value: unknown): value is boolean => typeof value === "boolean";

/** What each stored field must be; a field that is absent takes its default. */
const CHECKS: { [K in keyof Preferences]: (value: unknown) => value is Preferences[K] } = {
  direction: oneOf("ltr", "rtl"),
  mode: oneOf("light", "dark"),
  themeName: oneOf(...THEME_NAMES),
  sidebarWidth: isNumber,
  miniSidebarWidth: isNumber,
  topbarHeight: isNumber,
  layout: oneOf("boxed", "full"),
  collapsed: isBoolean,
  sidebarHover: isBoolean,
  mobileSidebar: isBoolean,
  horizontal: isBoolean,
  language: (value): value is string => typeof value === "string",
  cardShadow: isBoolean,
  borderRadius: (value): value is number => isNumber(value) && value >= 0 && value <= 24,
};

const isField = (key: string): key is keyof Preferences => key in CHECKS;

/** Copies one stored field (or its default, when absent) into `into`; false when it is not valid. */
function copyField<K extends keyof Preferences>(
  into: Partial<Preferences>,
  stored: ReadonlyMap<string, unknown>,
  key: K,
): boolean {
  const value = stored.has(key) ? stored.get(key) : DEFAULT_PREFERENCES[key];
  if (!CHECKS[key](value)) return false;
  into[key] = value;
  return true;
}

/**
 * The stored preferences with defaults filled in and unknown keys dropped; null when any stored
 * field is not what it must be (then none of them is trusted). Checked by hand rather than by a
 * zod schema because this runs before the first paint of every page, the sign-in page included,
 * whose first load must not download zod.
 */
export function readPreferences(stored: unknown): Preferences | null {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) return null;
  // A stored null is not "absent": it fails the field's check rather than taking the default.
  const fields = new Map(Object.entries(stored).filter(([, value]) => value !== undefined));
  const result: Partial<Preferences> = {};
  for (const key of Object.keys(CHECKS).filter(isField)) {
    if (!copyField(result, fields, key)) return null;
  }
  return { ...DEFAULT_PREFERENCES, ...result };
}

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
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "{}");
    return readPreferences(stored) ?? { ...DEFAULT_PREFERENCES };
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

/** Transient flags (hover, mobile drawer) are not worth restoring after a reload. */
export function savePreferences(preferences: Preferences) {
  const { sidebarHover: _hover, mobileSidebar: _mobile, ...lasting } = preferences;
  localStorage.setItem(STORAGE_KEY, JSON.stringify(lasting));
}
