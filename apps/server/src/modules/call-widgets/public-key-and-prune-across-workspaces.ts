import { isWidgetKeyShape } from "@parley/contract";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type CallWidgetRow, callWidgets, widgetCalls } from "./schema.ts";
import { HOUR_MS } from "./widget-limits.ts";

/**
 * Widget rows reached without a tenant: a visitor's page holds only the widget's public key (its
 * workspace is what the lookup finds out), and the daily prune of call slots runs for every widget.
 */

/**
 * The widget a public key names, whichever workspace holds it (the key is the only thing the
 * embedding page has); disabled widgets are found too, the caller decides. A text no key can be
 * (the public routes take any) names none, without asking the database (a NUL byte would fail there).
 */
export async function findWidgetByKey(db: Executor, key: string): Promise<CallWidgetRow | undefined> {
  if (!isWidgetKeyShape(key)) return undefined;
  const [row] = await db.select().from(callWidgets).where(eq(callWidgets.publicKey, key));
  return row;
}

/**
 * Rows a day old are past the visitor limit's hour and (calls being far shorter than a day: the
 * assistant's maximum duration ends them) past the concurrency count too.
 */
export async function pruneWidgetCalls(db: Executor, now: Date): Promise<void> {
  await db.delete(widgetCalls).where(sql`${widgetCalls.createdAt} < ${new Date(now.getTime() - 24 * HOUR_MS)}`);
}
