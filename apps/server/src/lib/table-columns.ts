import { timestamp, uuid } from "drizzle-orm/pg-core";

// Column builders are made fresh for each table: drizzle binds a builder to the table it is built into.

/** A random UUID primary key, the `id` of most tables. */
export const uuidPrimaryKey = () => uuid("id").primaryKey().defaultRandom();

/** When the row was written, set by the database. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/** When the row last changed: set by the database on insert, by the service on each update. */
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** `created_at` and `updated_at`, the last two columns of most tables. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
