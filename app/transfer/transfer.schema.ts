import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { users } from "../auth/auth.schema.ts";
import { bytea } from "../learning/sounds.schema.ts";

/**
 * An uploaded or pasted file between its preview and the learner's confirmation, so the preview survives page loads
 * without JavaScript. Drafts older than a day are removed when the learner uploads the next one. The file itself is in
 * `import_draft_parts`.
 */
export const importDrafts = pgTable(
  "import_drafts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The study language the rows go into (a JSON export names its own languages). */
    language: text("language").notNull(),
    fileName: text("file_name").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("import_drafts_user_idx").on(table.userId, table.createdAt)],
);

/**
 * A draft's file in parts of a few hundred KB, in order: each part is written and read by its own statement, with a turn
 * of the event loop between them, so a file of the largest size accepted never holds other requests for long.
 */
export const importDraftParts = pgTable(
  "import_draft_parts",
  {
    draftId: uuid("draft_id")
      .notNull()
      .references(() => importDrafts.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    content: text("content").notNull(),
  },
  (table) => [primaryKey({ columns: [table.draftId, table.part] })],
);

/**
 * The sounds an uploaded Anki package's notes name, checked and kept with the draft until it is confirmed (or dropped
 * with it): the confirmation may reach another instance than the upload did, and the upload's file is gone by then.
 */
export const importDraftSounds = pgTable(
  "import_draft_sounds",
  {
    draftId: uuid("draft_id")
      .notNull()
      .references(() => importDrafts.id, { onDelete: "cascade" }),
    /** The name the notes use in `[sound:…]`. */
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    hash: text("hash").notNull(),
    size: integer("size").notNull(),
    data: bytea("data").notNull(),
  },
  (table) => [primaryKey({ columns: [table.draftId, table.name] })],
);
