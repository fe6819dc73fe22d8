import { bigint, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row: a number that moves whenever data shown on the public pages changes (pledges and refunds, the shipped
 * public lists), whichever instance writes it; database triggers move it (drizzle/0009_public_data_version.sql).
 * Instances sharing a PostgreSQL database read it every few seconds and forget their kept public pages when it moved
 * (app/server/shared-data.server.ts).
 */
export const publicDataVersion = pgTable("public_data_version", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

/**
 * Data changes too large for the start-up migrations (ADR 046): a start-up migration inserts the job's row, and one
 * instance at a time (whichever claims the row's lease) runs it after start (app/server/background-migrations.server.ts)
 * and sets `done_at`. A release whose code needs the result checks that `done_at` is set everywhere before it ships.
 */
export const backgroundMigrations = pgTable("background_migrations", {
  name: text("name").primaryKey(),
  /** An instance working on it holds it until then; after a crash another one takes it over once this has passed. */
  claimedUntil: timestamp("claimed_until", { withTimezone: true }),
  doneAt: timestamp("done_at", { withTimezone: true }),
});
