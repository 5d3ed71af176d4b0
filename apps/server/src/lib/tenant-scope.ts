import { ERROR_TEXTS, type WorkspaceRole } from "@parley/contract";
import { and, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { AppError, notFound } from "./app-error.ts";

/** The workspace a request acts in and the caller's role there, resolved once (plugins/tenant.ts). */
export interface Tenant {
  workspaceId: string;
  role: WorkspaceRole;
  userId: string;
}

/** What a query needs of the tenant; work that runs outside a request (a live call) has only this. */
export type TenantScope = Pick<Tenant, "workspaceId">;

/**
 * The tenant of a prepared statement (db/prepared.ts): the workspace is a parameter, bound as
 * `workspaceId` each time the statement runs, so the filter is built once and still always there.
 */
export const BOUND_TENANT: { workspaceId: Placeholder<"workspaceId"> } = {
  workspaceId: sql.placeholder("workspaceId"),
};

interface WorkspaceOwned {
  workspaceId: AnyPgColumn;
}

/**
 * The one way services reach a workspace-owned table: every `where` starts with the tenant's
 * workspace and every insert carries it, so a query cannot forget the filter (spec §6).
 */
export function scoped(table: WorkspaceOwned, tenant: TenantScope | typeof BOUND_TENANT) {
  return {
    where: (...conditions: (SQL | undefined)[]) => and(eq(table.workspaceId, tenant.workspaceId), ...conditions),
    values: <V extends object>(values: V) => ({ ...values, workspaceId: tenant.workspaceId }),
  };
}

/** A row the tenant's scope did not yield is a 404, whether it is missing or another workspace's. */
export function found<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw notFound(what);
  return row;
}

/** Members read; some writes (credentials, workspace settings) are for owners only. */
export function requireOwner(tenant: Pick<Tenant, "role">): void {
  if (tenant.role !== "owner") throw new AppError("forbidden", ERROR_TEXTS.ownerRequired);
}
