import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { BillingUsage } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "./formatters.ts";

function UsageCard({ title, head, children }: { title: string; head: ReactNode; children: ReactNode }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        <Table size="small" aria-label={title}>
          <TableHead>
            <TableRow>{head}</TableRow>
          </TableHead>
          <TableBody>{children}</TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** What the month cost by provider and component (model tokens, transcriber minutes, voice characters, telephony). */
export function ComponentTable({ usage }: { usage: BillingUsage }) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const f = useFormatters();
  return (
    <UsageCard
      title={t("byProvider")}
      head={
        <>
          <TableCell>{t("component")}</TableCell>
          <TableCell>{t("provider")}</TableCell>
          <TableCell align="right">{t("quantity")}</TableCell>
          <TableCell align="right">{t("cost")}</TableCell>
        </>
      }
    >
      {usage.by_component.map((c) => (
        <TableRow key={`${c.component}-${c.provider}-${c.model}`}>
          <TableCell>{t(`components.${c.component}`)}</TableCell>
          <TableCell>
            {c.provider} · {c.model}
          </TableCell>
          <TableCell align="right">{t(`units.${c.unit}`, { count: c.quantity, value: f.count(c.quantity) })}</TableCell>
          <TableCell align="right">{f.money(c.cost)}</TableCell>
        </TableRow>
      ))}
    </UsageCard>
  );
}

export function AssistantTable({ usage }: { usage: BillingUsage }) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const f = useFormatters();
  return (
    <UsageCard
      title={t("byAssistant")}
      head={
        <>
          <TableCell>{t("assistant")}</TableCell>
          <TableCell align="right">{t("calls")}</TableCell>
          <TableCell align="right">{t("minutes")}</TableCell>
          <TableCell align="right">{t("cost")}</TableCell>
        </>
      }
    >
      {usage.by_assistant.map((a) => (
        <TableRow key={a.agent_id ?? a.agent_name}>
          <TableCell>{a.agent_name}</TableCell>
          <TableCell align="right">{f.count(a.calls)}</TableCell>
          <TableCell align="right">{f.minutes(a.minutes)}</TableCell>
          <TableCell align="right">{f.money(a.cost)}</TableCell>
        </TableRow>
      ))}
    </UsageCard>
  );
}

/** Every month with usage: choose one to see it, or download its statement. */
export function PeriodsTable({
  usage,
  onOpen,
  onDownload,
}: {
  usage: BillingUsage;
  onOpen: (period: string) => void;
  onDownload: (period: string, format: "csv" | "pdf") => void;
}) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const f = useFormatters();
  return (
    <UsageCard
      title={t("pastPeriods")}
      head={
        <>
          <TableCell>{t("period")}</TableCell>
          <TableCell align="right">{t("calls")}</TableCell>
          <TableCell align="right">{t("minutes")}</TableCell>
          <TableCell align="right">{t("cost")}</TableCell>
          <TableCell align="right">{t("statement")}</TableCell>
        </>
      }
    >
      {usage.periods.map((p) => (
        <TableRow key={p.period} selected={p.period === usage.period}>
          <TableCell>
            <Typography
              component="button"
              type="button"
              onClick={() => onOpen(p.period)}
              sx={{
                all: "unset",
                cursor: "pointer",
                color: "primary.main",
                "&:focus-visible": { outline: "2px solid", outlineOffset: 2 },
              }}
            >
              {f.period(p.period)}
            </Typography>
          </TableCell>
          <TableCell align="right">{f.count(p.calls)}</TableCell>
          <TableCell align="right">{f.minutes(p.minutes)}</TableCell>
          <TableCell align="right">{f.money(p.cost)}</TableCell>
          <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
            <Typography
              component="button"
              type="button"
              aria-label={t("downloadPdfOf", { period: f.period(p.period) })}
              onClick={() => onDownload(p.period, "pdf")}
              sx={linkButton}
            >
              PDF
            </Typography>
            {" · "}
            <Typography
              component="button"
              type="button"
              aria-label={t("downloadCsvOf", { period: f.period(p.period) })}
              onClick={() => onDownload(p.period, "csv")}
              sx={linkButton}
            >
              CSV
            </Typography>
          </TableCell>
        </TableRow>
      ))}
    </UsageCard>
  );
}

const linkButton = {
  all: "unset",
  cursor: "pointer",
  color: "primary.main",
  "&:focus-visible": { outline: "2px solid", outlineOffset: 2 },
} as const;
