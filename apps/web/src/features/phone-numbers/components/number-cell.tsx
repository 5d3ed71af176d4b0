import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { flagOf } from "../forms/number-rules.ts";

/** The country's name in the interface language (the browser knows them all); the code when it does not. */
function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A number as people read it: its flag and digits (always left to right), the country's name under it. */
export function NumberCell({ number, country }: { number: string; country: string | null }) {
  const { i18n } = useTranslation();
  const flag = flagOf(country);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
      {flag && (
        <span aria-hidden style={{ fontSize: "1.25rem", lineHeight: 1 }}>
          {flag}
        </span>
      )}
      <div>
        <Typography variant="body2" sx={{ fontVariantNumeric: "tabular-nums" }}>
          {/* An inline left-to-right run: the digits keep their order and the cell its alignment in Arabic. */}
          <span dir="ltr">{number}</span>
        </Typography>
        {country && (
          <Typography variant="caption" color="text.secondary">
            {countryName(country, i18n.language)}
          </Typography>
        )}
      </div>
    </Stack>
  );
}
