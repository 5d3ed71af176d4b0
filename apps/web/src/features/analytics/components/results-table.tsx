import Box from "@mui/material/Box";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { AnalyticsResult } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useMetricFormat } from "./metric-format.ts";

/** Every bucket (and group) with every metric asked for, and the range's totals: the chart's numbers. */
export function ResultsTable({ result }: { result: AnalyticsResult }) {
  const { t } = useTranslation("analytics");
  const f = useMetricFormat();
  const leading = (result.bucket !== "total" ? 1 : 0) + result.group_by.length;
  const rows = result.rows.filter((row) => result.group_by.length > 0 || result.metrics.some((m) => row.values[m]));
  return (
    <Box sx={{ overflowX: "auto" }} tabIndex={0} role="region" aria-labelledby="analytics-table-caption">
      <Table size="small" data-testid="analytics-table" sx={{ "& td, & th": { whiteSpace: "nowrap" } }}>
        <caption id="analytics-table-caption" style={{ captionSide: "top", textAlign: "start", padding: 0 }}>
          {t("table.caption", { from: f.day(result.from), to: f.day(result.to), zone: result.time_zone })}
        </caption>
        <TableHead>
          <TableRow>
            {leading === 0 && <TableCell scope="col">{t("table.range")}</TableCell>}
            {result.bucket !== "total" && <TableCell scope="col">{t(`bucket.${result.bucket}`)}</TableCell>}
            {result.group_by.map((d) => (
              <TableCell key={d} scope="col">
                {t(`dimension.${d}`)}
              </TableCell>
            ))}
            {result.metrics.map((m) => (
              <TableCell key={m} scope="col" align="right">
                {f.label(m)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={`${row.bucket}|${result.group_by.map((d) => row.keys[d]?.value).join("|")}`}>
              {leading === 0 && (
                <TableCell component="th" scope="row">
                  {t("table.range")}
                </TableCell>
              )}
              {result.bucket !== "total" && (
                <TableCell component="th" scope="row">
                  {row.bucket ? f.day(row.bucket) : ""}
                </TableCell>
              )}
              {result.group_by.map((d) => (
                <TableCell key={d}>{f.keyLabel(d, row.keys[d])}</TableCell>
              ))}
              {result.metrics.map((m) => (
                <TableCell key={m} align="right">
                  {f.value(m, row.values[m])}
                </TableCell>
              ))}
            </TableRow>
          ))}
          <TableRow sx={{ "& > *": { fontWeight: 700 } }}>
            <TableCell component="th" scope="row" colSpan={Math.max(1, leading)}>
              {t("table.total")}
            </TableCell>
            {result.metrics.map((m) => (
              <TableCell key={m} align="right" data-total={m}>
                {f.value(m, result.totals[m])}
              </TableCell>
            ))}
          </TableRow>
        </TableBody>
      </Table>
    </Box>
  );
}
