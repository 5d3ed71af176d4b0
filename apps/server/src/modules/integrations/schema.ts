import { boolean, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "../../lib/table-columns.ts";
import { workspaceRecordKey } from "../workspaces/owned-columns.ts";

/** A workspace's credentials for one provider; `credentials` is the JSON of every field, sealed by SecretBox. */
export const integrations = pgTable(
  "integrations",
  {
    ...workspaceRecordKey(),
    provider: text("provider").notNull(),
    credentials: text("credentials").notNull(),
    lastTestOk: boolean("last_test_ok"),
    lastTestMessage: text("last_test_message"),
    lastTestedAt: timestamp("last_tested_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("integrations_workspace_provider_idx").on(t.workspaceId, t.provider)],
);

export type IntegrationRow = typeof integrations.$inferSelect;
