import type { QuotaBody } from "@parley/contract";
import type { TFunction } from "i18next";

/** One line naming a tier's (or an override's) four limits, numbers in the interface language. */
export function limitsSummary(t: TFunction, limits: QuotaBody, language: string): string {
  const n = (value: number) => value.toLocaleString(language);
  return t("limitsSummary", {
    assistants: n(limits.max_assistants),
    minutes: n(limits.minutes_per_month),
    calls: n(limits.concurrent_calls),
    workspaces: n(limits.max_workspaces),
  });
}
