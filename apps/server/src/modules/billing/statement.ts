import type { UsageComponent, UsageUnit } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Tenant } from "../../lib/tenant-scope.ts";
import { findMembership } from "../workspaces/service.ts";
import { PAGE_HEIGHT, type PdfPage, renderPdf } from "./pdf-document.ts";
import { periodBounds, statementLines } from "./usage-queries.ts";

/** A workspace's monthly statement: one line per component, provider, model and unit price. */
export interface Statement {
  workspaceName: string;
  billingEmail: string | null;
  period: string;
  periodStart: string;
  periodEnd: string;
  issuedAt: string;
  lines: {
    component: UsageComponent;
    provider: string;
    model: string;
    unit: UsageUnit;
    unit_price: number;
    quantity: number;
    cost: number;
  }[];
  total: number;
}

const COMPONENT_NAMES: Record<UsageComponent, string> = {
  llm_input: "Model input tokens",
  llm_output: "Model output tokens",
  stt: "Transcriber minutes",
  tts: "Voice characters",
  telephony: "Telephony minutes",
};

export async function buildStatement(ctx: AppContext, tenant: Tenant, period: string): Promise<Statement> {
  const membership = await findMembership(ctx.db, tenant.userId, tenant.workspaceId);
  if (!membership) throw new AppError("not_found", "Workspace not found.");
  const lines = await statementLines(ctx.db, tenant, period);
  const { start, end } = periodBounds(period);
  const total = Math.round(lines.reduce((n, l) => n + l.cost, 0) * 1e6) / 1e6;
  return {
    workspaceName: membership.workspace.name,
    billingEmail: membership.workspace.billingEmail ?? null,
    period,
    periodStart: start,
    periodEnd: end,
    issuedAt: ctx.now().toISOString(),
    lines,
    total,
  };
}

/** A CSV field: quoted when it holds a separator, a quote or a line break; formula starts neutralised. */
function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function statementCsv(s: Statement): string {
  const header = [
    "period",
    "component",
    "description",
    "provider",
    "model",
    "unit",
    "quantity",
    "unit_price_usd",
    "cost_usd",
  ];
  const rows = s.lines.map((l) => [
    s.period,
    l.component,
    COMPONENT_NAMES[l.component],
    l.provider,
    l.model,
    l.unit,
    l.quantity,
    l.unit_price,
    l.cost.toFixed(6),
  ]);
  rows.push([s.period, "total", "Total", "", "", "", "", "", s.total.toFixed(6)]);
  return `${[header, ...rows].map((row) => row.map(csvField).join(",")).join("\r\n")}\r\n`;
}

/** Usage costs are fractions of a cent: four decimals. */
const usd = (n: number) => `$${n.toFixed(4)}`;
const lastDayOf = (periodEnd: string) => new Date(Date.parse(periodEnd) - 86_400_000).toISOString().slice(0, 10);
const quantityText = (n: number, unit: UsageUnit) =>
  `${unit === "minute" ? n.toFixed(2) : Math.round(n).toLocaleString("en-US")} ${unit}${n === 1 ? "" : "s"}`;

const LINES_PER_PAGE = 30;
const COLUMNS = { description: 40, provider: 190, quantity: 400, unitPrice: 480, cost: 555 };

/** The statement as an A4 PDF: header, line items (several pages when long), total. */
export function statementPdf(s: Statement): Buffer {
  const pages: PdfPage[] = [];
  for (let first = 0; first === 0 || first < s.lines.length; first += LINES_PER_PAGE) {
    const page: PdfPage = { texts: [], rules: [] };
    let y = PAGE_HEIGHT - 60;
    page.texts.push({ x: 40, y, text: "Statement", size: 20, bold: true });
    y -= 24;
    page.texts.push({ x: 40, y, text: `Workspace: ${s.workspaceName}`, size: 11 });
    if (s.billingEmail) page.texts.push({ x: 555, y, text: s.billingEmail, size: 11, alignRight: true });
    y -= 16;
    page.texts.push({ x: 40, y, text: `Period: ${s.periodStart} to ${lastDayOf(s.periodEnd)} (UTC)`, size: 11 });
    y -= 16;
    page.texts.push({ x: 40, y, text: `Issued: ${s.issuedAt.slice(0, 10)}`, size: 9 });
    y -= 28;
    for (const [text, x, right] of [
      ["Item", COLUMNS.description, false],
      ["Provider / model", COLUMNS.provider, false],
      ["Quantity", COLUMNS.quantity, true],
      ["Unit price", COLUMNS.unitPrice, true],
      ["Amount", COLUMNS.cost, true],
    ] as const) {
      page.texts.push({ x, y, text, size: 9, bold: true, alignRight: right });
    }
    page.rules.push({ x1: 40, y1: y - 6, x2: 555, y2: y - 6 });
    y -= 22;
    for (const line of s.lines.slice(first, first + LINES_PER_PAGE)) {
      page.texts.push({ x: COLUMNS.description, y, text: COMPONENT_NAMES[line.component], size: 9 });
      page.texts.push({ x: COLUMNS.provider, y, text: `${line.provider} / ${line.model}`.slice(0, 42), size: 9 });
      page.texts.push({
        x: COLUMNS.quantity,
        y,
        text: quantityText(line.quantity, line.unit),
        size: 9,
        alignRight: true,
      });
      page.texts.push({
        x: COLUMNS.unitPrice,
        y,
        text: `$${line.unit_price.toPrecision(3)}`,
        size: 9,
        alignRight: true,
      });
      page.texts.push({ x: COLUMNS.cost, y, text: usd(line.cost), size: 9, alignRight: true });
      y -= 18;
    }
    if (s.lines.length === 0) {
      page.texts.push({ x: 40, y, text: "No calls were made in this period.", size: 10 });
      y -= 18;
    }
    pages.push(page);
    if (first + LINES_PER_PAGE >= s.lines.length) {
      page.rules.push({ x1: 40, y1: y + 6, x2: 555, y2: y + 6 });
      page.texts.push({ x: COLUMNS.unitPrice, y: y - 10, text: "Total (USD)", size: 11, bold: true, alignRight: true });
      page.texts.push({ x: COLUMNS.cost, y: y - 10, text: usd(s.total), size: 11, bold: true, alignRight: true });
    }
  }
  pages.forEach((page, i) => {
    page.texts.push({ x: 555, y: 30, text: `Page ${i + 1} of ${pages.length}`, size: 8, alignRight: true });
  });
  return renderPdf(pages, `Statement ${s.workspaceName} ${s.period}`);
}
