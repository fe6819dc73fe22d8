import { customType, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { users } from "../auth/auth.schema.ts";
import { terms } from "./learning.schema.ts";

/** PostgreSQL's `bytea`: a sound's bytes as a Buffer. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * A term's sound (ADR 126): from an Anki deck's media, one per term, its bytes in the database so that every instance
 * serves it and backups carry it. `hash` (SHA-256 of the bytes) names it in its URL, which never changes meaning and
 * is cached for a year. `user_id` is the term's learner, for the per-learner limit and account deletion.
 */
export const termSounds = pgTable(
  "term_sounds",
  {
    termId: uuid("term_id")
      .primaryKey()
      .references(() => terms.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** One of SOUND_KINDS (sounds.ts), taken from the bytes, never from the name. */
    kind: text("kind").notNull(),
    hash: text("hash").notNull(),
    size: integer("size").notNull(),
    /** The file's name in the deck (cut to 200 characters), written back into an `.apkg` export. */
    name: text("name").notNull(),
    data: bytea("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("term_sounds_user_hash_idx").on(table.userId, table.hash)],
);
