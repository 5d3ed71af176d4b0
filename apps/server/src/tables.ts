/**
 * Every table of the database, for drizzle-kit alone (drizzle.config.ts) when it writes a migration.
 * Each module owns the tables in its own schema file; nothing at run time reads this list (the
 * services query tables they import, and migrations are the SQL files in apps/server/drizzle).
 */

export * from "./jobs/schema.ts";
export * from "./lib/audit-events-table.ts";
export * from "./modules/analytics/schema.ts";
export * from "./modules/api-keys/schema.ts";
export * from "./modules/assistants/schema.ts";
export * from "./modules/auth/schema.ts";
export * from "./modules/batch-calls/schema.ts";
export * from "./modules/billing/schema.ts";
export * from "./modules/call-logs/schema.ts";
export * from "./modules/call-widgets/schema.ts";
export * from "./modules/calls/schema.ts";
export * from "./modules/functions/schema.ts";
export * from "./modules/integrations/schema.ts";
export * from "./modules/knowledge-base/schema.ts";
export * from "./modules/mcp-servers/schema.ts";
export * from "./modules/nodes/schema.ts";
export * from "./modules/phone-numbers/schema.ts";
export * from "./modules/privacy/schema.ts";
export * from "./modules/sip/schema.ts";
export * from "./modules/squads/schema.ts";
export * from "./modules/test-suites/schema.ts";
export * from "./modules/users/schema.ts";
export * from "./modules/voice-lab/schema.ts";
export * from "./modules/webhooks/schema.ts";
export * from "./modules/workflows/schema.ts";
export * from "./modules/workspaces/schema.ts";
