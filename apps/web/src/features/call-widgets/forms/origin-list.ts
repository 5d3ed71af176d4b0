import { normalizeWidgetOrigin, WidgetOrigin, type WidgetOriginProblem, widgetOriginProblem } from "@parley/contract";

/** One site as typed in the allowed-sites box: the origin it is saved as, or what is wrong with it. */
export type OriginEntry =
  | { text: string; origin: string; problem: null }
  | { text: string; origin: null; problem: WidgetOriginProblem };

/**
 * The allowed-sites box: one site per line, or several on a line separated by commas; spaces around
 * a site are trimmed. A space inside a site keeps it one entry (refused, saying so): splitting there
 * would turn one mistyped site, or a pasted sentence, into sites nobody meant to allow.
 */
export function parseOriginList(text: string): OriginEntry[] {
  return text
    .split(/[\r\n,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry): OriginEntry => {
      const parsed = WidgetOrigin.safeParse(entry);
      if (parsed.success) return { text: entry, origin: parsed.data, problem: null };
      // Too long is the one refusal the contract's own checks name no problem for.
      return { text: entry, origin: null, problem: widgetOriginProblem(normalizeWidgetOrigin(entry)) ?? "notOrigin" };
    });
}

/** The distinct origins of the valid entries, in the order typed (a site typed twice is saved once). */
export function originsOf(entries: readonly OriginEntry[]): string[] {
  return [...new Set(entries.flatMap((entry) => (entry.origin === null ? [] : [entry.origin])))];
}
