import {
  type CallWidget,
  type CallWidgetCreate,
  type CallWidgetUpdate,
  DEFAULT_WIDGET_APPEARANCE,
  DEFAULT_WIDGET_LIMITS,
  WIDGET_KEY_PREFIX,
} from "@parley/contract";
import { desc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { randomToken } from "../../lib/crypto.ts";
import { deleteRow, requireRow } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";
import { requireSquad } from "../squads/service.ts";
import { type CallWidgetRow, callWidgets } from "./schema.ts";

const NOT_FOUND = "Call widget not found.";

/** `pw_` and 24 random bytes: unguessable, so a widget cannot be found by trying keys. */
export const newPublicKey = () => `${WIDGET_KEY_PREFIX}${randomToken(24)}`;

export function toCallWidget(row: CallWidgetRow): CallWidget {
  return {
    id: row.id,
    name: row.name,
    assistant_id: row.agentId,
    squad_id: row.squadId,
    public_key: row.publicKey,
    appearance: row.appearance,
    allowed_origins: row.allowedOrigins,
    limits: {
      max_concurrent_calls: row.maxConcurrentCalls,
      calls_per_visitor_per_hour: row.callsPerVisitorPerHour,
    },
    enabled: row.enabled,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function listCallWidgets(db: Executor, tenant: TenantScope): Promise<CallWidgetRow[]> {
  return db.select().from(callWidgets).where(scoped(callWidgets, tenant).where()).orderBy(desc(callWidgets.createdAt));
}

export async function requireCallWidget(db: Executor, tenant: TenantScope, id: string): Promise<CallWidgetRow> {
  return requireRow(db, callWidgets, tenant, id, NOT_FOUND);
}

export async function createCallWidget(
  db: Executor,
  tenant: TenantScope,
  input: CallWidgetCreate,
): Promise<CallWidgetRow> {
  // Another workspace's assistant is a 404, like a missing one.
  await requireAgent(db, tenant, input.assistant_id);
  if (input.squad_id) await requireSquad(db, tenant, input.squad_id);
  const limits = input.limits ?? DEFAULT_WIDGET_LIMITS;
  const [row] = await db
    .insert(callWidgets)
    .values(
      scoped(callWidgets, tenant).values({
        name: input.name,
        agentId: input.assistant_id,
        squadId: input.squad_id ?? null,
        publicKey: newPublicKey(),
        appearance: input.appearance ?? DEFAULT_WIDGET_APPEARANCE,
        allowedOrigins: input.allowed_origins ?? [],
        maxConcurrentCalls: limits.max_concurrent_calls,
        callsPerVisitorPerHour: limits.calls_per_visitor_per_hour,
        enabled: input.enabled ?? true,
      }),
    )
    .returning();
  if (!row) throw new Error("insert into call_widgets returned no row");
  return row;
}

export async function updateCallWidget(
  db: Executor,
  tenant: TenantScope,
  id: string,
  input: CallWidgetUpdate,
  now: Date,
): Promise<CallWidgetRow> {
  await requireCallWidget(db, tenant, id);
  if (input.assistant_id) await requireAgent(db, tenant, input.assistant_id);
  if (input.squad_id) await requireSquad(db, tenant, input.squad_id);
  const [row] = await db
    .update(callWidgets)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.assistant_id !== undefined ? { agentId: input.assistant_id } : {}),
      ...(input.squad_id !== undefined ? { squadId: input.squad_id } : {}),
      ...(input.appearance !== undefined ? { appearance: input.appearance } : {}),
      ...(input.allowed_origins !== undefined ? { allowedOrigins: [...new Set(input.allowed_origins)] } : {}),
      ...(input.limits !== undefined
        ? {
            maxConcurrentCalls: input.limits.max_concurrent_calls,
            callsPerVisitorPerHour: input.limits.calls_per_visitor_per_hour,
          }
        : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      updatedAt: now,
    })
    .where(scoped(callWidgets, tenant).where(eq(callWidgets.id, id)))
    .returning();
  return found(row, NOT_FOUND);
}

/** A new public key: pages still embedding the old one stop working at once. */
export async function rotateWidgetKey(db: Executor, tenant: TenantScope, id: string, now: Date) {
  const [row] = await db
    .update(callWidgets)
    .set({ publicKey: newPublicKey(), updatedAt: now })
    .where(scoped(callWidgets, tenant).where(eq(callWidgets.id, id)))
    .returning();
  return found(row, NOT_FOUND);
}

export async function deleteCallWidget(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  await deleteRow(db, callWidgets, tenant, id, NOT_FOUND);
}
