import { useTranslation } from "react-i18next";

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
  const month = new Intl.DateTimeFormat(i18n.language, { month: "long", year: "numeric", timeZone: "UTC" });
  const day = new Intl.DateTimeFormat(i18n.language, { day: "numeric", month: "short", timeZone: "UTC" });
  return {
    money: (n: number) => money.format(n),
    minutes: (n: number) => minutes.format(n),
    count: (n: number) => count.format(n),
    /** `YYYY-MM` as the month's name. */
    period: (period: string) => month.format(new Date(`${period}-01T00:00:00Z`)),
    day: (isoDay: string) => day.format(new Date(`${isoDay}T00:00:00Z`)),
  };
}
