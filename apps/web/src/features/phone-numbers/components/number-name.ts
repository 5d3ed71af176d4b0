import type { PhoneNumber } from "@parley/contract";

/** The name a row goes by: its friendly name, else its number. */
export const nameOf = (number: PhoneNumber) => number.friendly_name || number.number;

/**
 * The direction a name is written in: one without letters ("+44 20 7946 0958", "(415) 555-0100") is a
 * number and reads left to right even in Arabic; any other takes the direction of its own letters.
 */
export const nameDirection = (name: string) => (/\p{L}/u.test(name) ? "auto" : "ltr");

/** A name as plain text (a page title) with a number kept left to right inside right-to-left text (LRI … PDI). */
export const isolatedName = (name: string) => (nameDirection(name) === "ltr" ? `\u2066${name}\u2069` : name);
