import { integer, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "../users/schema.ts";

export const tiers = pgTable("tiers", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull().unique(),
  description: text("description"),
  maxAssistants: integer("max_assistants").notNull(),
  minutesPerMonth: integer("minutes_per_month").notNull(),
  concurrentCalls: integer("concurrent_calls").notNull(),
  maxWorkspaces: integer("max_workspaces").notNull(),
  /** Monthly price in the platform currency (USD), two decimals. */
  price: numeric("price", { precision: 10, scale: 2 }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Per-user limits that override the tier's; their presence makes a user "enterprise". */
export const enterpriseQuotas = pgTable("enterprise_quotas", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  maxAssistants: integer("max_assistants").notNull(),
  minutesPerMonth: integer("minutes_per_month").notNull(),
  concurrentCalls: integer("concurrent_calls").notNull(),
  maxWorkspaces: integer("max_workspaces").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
