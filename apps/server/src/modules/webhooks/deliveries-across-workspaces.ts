// The delivery job's lookup crosses workspaces on purpose: the job runner hands the job only the
// delivery's id (a global UUID), so the delivery and its endpoint are found by that id alone. What
// the job writes afterwards is scoped to the workspace the delivery names.

import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { webhookDeliveries, webhookEndpoints } from "./schema.ts";

/** The delivery with this id and the endpoint it is for, whatever their workspace. */
export async function findDeliveryToRun(db: Executor, deliveryId: string) {
  const [found] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return found;
}
