/** Sizes a person reads (a document, a voice sample), shared by every page that shows one. */

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;
const formats = new Map<string, Intl.NumberFormat>();

/** One Intl.NumberFormat per language and unit: a list re-renders often, making one loads locale data. */
function unitFormat(language: string, unit: number, fractionDigits: number): Intl.NumberFormat {
  const key = `${language}\u0000${unit}\u0000${fractionDigits}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      style: "unit",
      unit: UNITS[unit],
      // Bytes are spelled out, so the language's plural rules apply ("1 byte", "96 bytes", "96 Byte");
      // the larger units read as symbols ("1.2 MB", "340 kB").
      unitDisplay: unit === 0 ? "long" : "short",
      maximumFractionDigits: fractionDigits,
    });
    formats.set(key, format);
  }
  return format;
}

/** "96 bytes", "340 kB", "1.2 MB" in the reader's language (decimal units, one decimal below ten). */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unitFormat(language, unit, value < 10 && unit > 0 ? 1 : 0).format(value);
}
