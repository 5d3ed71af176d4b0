import type { AnalyticsResult } from "@parley/contract";

/** A cell that starts like a formula (=, +, -, @, tab, CR) is read as text by spreadsheets. */
function cell(value: string | number | null): string {
  if (value === null) return "";
  const s = String(value);
  const safe = typeof value === "string" && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The query's rows as CSV: bucket, each dimension's id and label, then the metrics; a last row of totals. */
export function analyticsCsv(result: AnalyticsResult): string {
  const header = ["bucket", ...result.group_by.flatMap((d) => [d, `${d}_label`]), ...result.metrics];
  const lines = [header.map(cell).join(",")];
  for (const row of result.rows) {
    lines.push(
      [
        row.bucket ?? "total",
        ...result.group_by.flatMap((d) => [row.keys[d]?.value ?? null, row.keys[d]?.label ?? null]),
        ...result.metrics.map((m) => row.values[m] ?? null),
      ]
        .map(cell)
        .join(","),
    );
  }
  lines.push(
    ["total", ...result.group_by.flatMap(() => [null, null]), ...result.metrics.map((m) => result.totals[m] ?? null)]
      .map(cell)
      .join(","),
  );
  return `${lines.join("\r\n")}\r\n`;
}
