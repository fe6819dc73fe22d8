import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
// `.ts`: scripts load the tables with plain `node` (see db/open.server.ts).
import { users } from "../auth/auth.schema.ts";

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
