import { bigint, integer, pgTable } from "drizzle-orm/pg-core";

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
