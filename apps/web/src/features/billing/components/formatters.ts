import { useTranslation } from "react-i18next";
import { datesIn } from "../../../lib/dates-in-language.ts";

/** Numbers in the interface language: money to a hundredth of a cent (usage costs are small), minutes to a tenth. */
export function useFormatters() {
  const { i18n } = useTranslation();
  const money = new Intl.NumberFormat(i18n.language, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  });
  const minutes = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const count = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  // Months and days the way every page writes dates (lib/dates-in-language.ts).
  const dates = datesIn(i18n.language);
  return {
    money: (n: number) => money.format(n),
    minutes: (n: number) => minutes.format(n),
    count: (n: number) => count.format(n),
    /** `YYYY-MM` as the month's name. */
    period: dates.period,
    day: dates.day,
  };
}
