import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * A dictionary the app holds: the project's own word lists (built in) or one loaded with `npm run dict:import`, per
 * source language → target language. The sources page lists these rows with their licences. (Not to be confused with
 * `learner_settings.dictionaries`: the external dictionary links a learner chose, migration 0011.)
 */
export const dictionarySources = pgTable(
  "dictionary_sources",
  {
    /** A short name: "polyglot-lists", "cc-cedict", "jmdict", or what `--source` said. */
    name: text("name").notNull(),
    fromLanguage: text("from_language").notNull(),
    toLanguage: text("to_language").notNull(),
    /** What the sources page calls it, e.g. "CC-CEDICT". */
    title: text("title").notNull(),
    licence: text("licence").notNull(),
    /** Where it comes from (an https address), or empty. */
    url: text("url").notNull().default(""),
    entries: integer("entries").notNull(),
    /** A digest of what was loaded: a built-in source loads again only when its data changed. */
    digest: text("digest").notNull().default(""),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.name, table.fromLanguage, table.toLanguage] })],
);

/**
 * One entry of a dictionary: a headword with its glosses in the target language. `headword_key` and `lemma_key` are the
 * forms looked up: lower-cased in the source language, without a leading article ("der Hund" → "hund"). An inflected
 * form names its lemma ("Hunde" → "Hund") and may have no glosses of its own: the lemma's are shown.
 */
export const dictionaryEntries = pgTable(
  "dictionary_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    source: text("source").notNull(),
    fromLanguage: text("from_language").notNull(),
    toLanguage: text("to_language").notNull(),
    headword: text("headword").notNull(),
    headwordKey: text("headword_key").notNull(),
    lemma: text("lemma"),
    lemmaKey: text("lemma_key"),
    /** How the headword is read where the script does not say: pinyin (CC-CEDICT), kana (JMdict). */
    reading: text("reading"),
    partOfSpeech: text("part_of_speech"),
    glosses: jsonb("glosses").$type<string[]>().notNull(),
  },
  (table) => [
    index("dictionary_entries_headword_idx").on(table.fromLanguage, table.toLanguage, table.headwordKey),
    index("dictionary_entries_lemma_idx").on(table.fromLanguage, table.toLanguage, table.lemmaKey),
    index("dictionary_entries_source_idx").on(table.source, table.fromLanguage, table.toLanguage),
  ],
);

/**
 * An inflected form and its dictionary form in one language ("trinke" → "trinken"), from a morphological source
 * (Hunspell's affix rules, `npm run dict:install`): a look-up of the form also finds the entries of its dictionary
 * form, whatever the target language. Only forms whose dictionary form is a headword of some loaded dictionary are kept.
 */
export const dictionaryForms = pgTable(
  "dictionary_forms",
  {
    source: text("source").notNull(),
    language: text("language").notNull(),
    /** The form as looked up (entries.server.ts' key). */
    formKey: text("form_key").notNull(),
    lemma: text("lemma").notNull(),
    lemmaKey: text("lemma_key").notNull(),
  },
  (table) => [
    index("dictionary_forms_form_idx").on(table.language, table.formKey),
    index("dictionary_forms_source_idx").on(table.source, table.language),
  ],
);
