/**
 * Reads an unpacked Anki collection into an import draft, on a thread of its own (ADR 089; run by
 * app/server/worker-task.server.ts). The collection is the uploader's SQL: every table the import reads must be a
 * plain table (a view or a virtual table runs whatever query the uploader wrote, a generated column whatever
 * expression), an authorizer refuses anything read through a view or a recursive query all the same, temporary data
 * stays in memory, no query sorts (rows come in rowid order, which is Anki's id order), and rows, fields, reviews and
 * text are counted against limits as they are read. Each function here uses nothing but its arguments and the others.
 */
import type { DatabaseSync, StatementSync } from "node:sqlite";

type Sqlite = typeof import("node:sqlite");

export type CollectionInput = {
  file: string;
  layout: string;
  format: string;
  maxNotes: number;
  /** Fields of a note kept (the preview maps at most this many columns) and the characters kept of each. */
  maxFields: number;
  cellLimit: number;
  /** Graded reviews kept per note, the newest, and in all. */
  maxReviewsPerNote: number;
  maxReviews: number;
  /** Characters of field text (and of col's JSON) a package may hold in all. */
  maxText: number;
  /** Reviews outside [earliest, latest] (ms) are left out as misdated. */
  earliest: number;
  latest: number;
  /** The study languages' codes (a deck named by our export goes back into its language). */
  languages: string[];
};

export type CollectionError = "notAnki" | "tooManyNotes" | "tooManyFields" | "tooLarge" | "unreadable";
export type CollectionOutcome =
  { content: string; notes: number; reviewsLeftOut: number; sounds: string[] } | { error: CollectionError };

export function readCollection(sqlite: Sqlite, input: CollectionInput): CollectionOutcome {
  let db: DatabaseSync;
  try {
    db = new sqlite.DatabaseSync(input.file, { readOnly: true });
  } catch {
    return { error: "unreadable" };
  }
  try {
    db.exec("pragma query_only = on; pragma trusted_schema = off; pragma temp_store = memory; pragma threads = 0");
    // The tables the import reads; the last two exist from schema 18 on.
    const present = collectionTables(db, ["col", "notes", "cards", "revlog", "fields", "decks"]);
    if (present === null) return { error: "notAnki" };
    if (!["col", "notes", "cards", "revlog"].every((name) => present.has(name))) return { error: "unreadable" };
    // Nothing is read through a view or a recursive query, whatever the checks above missed.
    db.setAuthorizer((action, _table, _column, _database, view) =>
      view !== null || action === sqlite.constants.SQLITE_RECURSIVE
        ? sqlite.constants.SQLITE_DENY
        : sqlite.constants.SQLITE_OK,
    );
    const count = Number(db.prepare("select count(*) as n from notes").get()?.n ?? 0);
    if (count > input.maxNotes) return { error: "tooManyNotes" };
    const col = db
      .prepare(
        // Lengths in bytes: a text's length in characters ends at its first NUL.
        `select case when length(cast(models as blob)) <= :max then models end as models,
           case when length(cast(decks as blob)) <= :max then decks end as decks,
           length(cast(models as blob)) > :max or length(cast(decks as blob)) > :max as over from col limit 1`,
      )
      .get({ max: input.maxText });
    if (col?.over) return { error: "tooLarge" };
    const fieldNames = noteFieldNames(db, present.has("fields"), String(col?.models ?? "{}"), input);
    const languages = deckLanguages(db, present.has("decks"), String(col?.decks ?? "{}"), input.languages);
    const cards = firstCards(db);
    const reviews = newestReviews(db, cards, input);
    if (!reviews) return { error: "tooLarge" };
    return draftOf(db, fieldNames, cards, languages, reviews, input);
  } catch {
    return { error: "unreadable" };
  } finally {
    db.close();
  }
}

/** Which of `names` the collection has, or null when one of them is anything but a plain table. */
export function collectionTables(db: DatabaseSync, names: string[]): Set<string> | null {
  const present = new Set<string>();
  const rows = db
    .prepare(`select name, type, sql from sqlite_master where name in (${names.map(() => "?").join(", ")})`)
    .all(...names);
  const generated = db.prepare("select count(*) as n from pragma_table_xinfo(?) where hidden in (2, 3)");
  for (const row of rows) {
    const name = String(row.name);
    if (row.type !== "table" || /^\s*create\s+virtual\b/i.test(String(row.sql ?? ""))) return null;
    if (Number(generated.get(name)?.n ?? 0) > 0) return null;
    present.add(name);
  }
  return present;
}

/** The field names of each note type: schema 18 keeps them in their own table, schema 11 as JSON in col.models. */
export function noteFieldNames(db: DatabaseSync, table: boolean, models: string, input: CollectionInput) {
  const names = new Map<string, string[]>();
  if (table) {
    const rows = db.prepare("select ntid, substr(name, 1, 200) as name from fields order by ntid, ord limit :max");
    for (const row of rows.iterate({ max: input.maxFields * 1000 })) {
      const list = names.get(String(row.ntid)) ?? [];
      list.push(String(row.name));
      names.set(String(row.ntid), list);
    }
    return names;
  }
  const parsed = JSON.parse(models || "{}") as Record<string, { flds?: { name: string; ord: number }[] }>;
  for (const [id, model] of Object.entries(parsed ?? {}))
    names.set(
      id,
      [...(model?.flds ?? [])].sort((a, b) => a.ord - b.ord).map((f) => String(f.name)),
    );
  return names;
}

/** The study language of each deck our export named (`Polyglot::Deutsch (de)`), by deck id. */
export function deckLanguages(
  db: DatabaseSync,
  table: boolean,
  decks: string,
  languages: string[],
): Map<string, string> {
  const names: [string, string][] = table
    ? db
        .prepare("select id, substr(name, 1, 200) as name from decks limit 100000")
        .all()
        .map((row) => [String(row.id), String(row.name)])
    : Object.entries((JSON.parse(decks || "{}") ?? {}) as Record<string, { name?: string }>).map(([id, deck]) => [
        id,
        String(deck?.name ?? ""),
      ]);
  const byDeck = new Map<string, string>();
  for (const [id, name] of names) {
    const code = /^Polyglot::.*\(([a-z]{2,3})\)$/.exec(name)?.[1];
    if (code && languages.includes(code)) byDeck.set(id, code);
  }
  return byDeck;
}

type FirstCard = { id: number; ord: number; deck: string };

/** Each note's first card (lowest ord, then id): it carries the note's reviews (a reversed card's are another question). */
export function firstCards(db: DatabaseSync): Map<number, FirstCard> {
  const cards = new Map<number, FirstCard>();
  const rows = db.prepare("select id, nid, did, ord from cards where nid in (select id from notes)");
  for (const row of rows.iterate()) {
    const nid = Number(row.nid);
    const card = { id: Number(row.id), ord: Number(row.ord), deck: String(row.did) };
    const kept = cards.get(nid);
    if (!kept || card.ord < kept.ord || (card.ord === kept.ord && card.id < kept.id)) cards.set(nid, card);
  }
  return cards;
}

/**
 * The graded reviews (types 0–3 with an ease; manual changes are not reviews) of the first cards, the newest
 * `maxReviewsPerNote` of each in time order, and how many older ones were left out; null past `maxReviews` in all.
 */
export function newestReviews(db: DatabaseSync, cards: Map<number, FirstCard>, input: CollectionInput) {
  const ofCard = new Map<number, [number, number][]>();
  for (const card of cards.values()) ofCard.set(card.id, []);
  let leftOut = 0;
  let kept = 0;
  const rows: StatementSync = db.prepare(
    "select id, cid, ease from revlog where type between 0 and 3 and ease between 1 and 4 order by rowid desc",
  );
  for (const row of rows.iterate()) {
    const list = ofCard.get(Number(row.cid));
    const at = Number(row.id);
    if (!list || !(at >= input.earliest && at <= input.latest)) continue;
    if (list.length >= input.maxReviewsPerNote) leftOut++;
    else if (++kept > input.maxReviews) return null;
    else list.push([at, Number(row.ease)]);
  }
  for (const list of ofCard.values()) list.sort((a, b) => a[0] - b[0]);
  return { ofCard, leftOut };
}

/**
 * The draft in JSON lines: a header (the fields of the note type most notes use; other types map by position), then
 * one note a line. Null when the notes hold more text than `maxText`.
 */
export function draftOf(
  db: DatabaseSync,
  fieldNames: Map<string, string[]>,
  cards: Map<number, FirstCard>,
  languages: Map<string, string>,
  reviews: { ofCard: Map<number, [number, number][]>; leftOut: number },
  input: CollectionInput,
): CollectionOutcome {
  const lines: string[] = [];
  const usage = new Map<string, number>();
  let text = 0;
  // The fields' first bytes (as a blob: SQLite's text functions end a text at its first NUL), up to four a character.
  const rows = db.prepare(
    "select id, mid, substr(cast(flds as blob), 1, :bytes) as flds, substr(tags, 1, 1000) as tags from notes order by rowid limit :max",
  );
  const utf8 = new TextDecoder();
  const sounds = new Set<string>();
  for (const row of rows.iterate({ bytes: 4 * input.maxFields * (input.cellLimit + 2), max: input.maxNotes })) {
    const mid = String(row.mid);
    usage.set(mid, (usage.get(mid) ?? 0) + 1);
    // A note type with more fields than the preview maps: refused, rather than imported without some of them.
    if ((fieldNames.get(mid)?.length ?? 0) > input.maxFields) return { error: "tooManyFields" };
    // NUL never belongs in text, and PostgreSQL refuses it (as the form reader drops it from every field).
    const all = (row.flds instanceof Uint8Array ? utf8.decode(row.flds) : String(row.flds ?? ""))
      .replaceAll("\u0000", "")
      .split("\x1f");
    if (all.length > input.maxFields) return { error: "tooManyFields" };
    const cells = all
      // A cell longer than anything a field holds is still reported as too long, not cut silently.
      .map((cell) => cell.slice(0, input.cellLimit + 1));
    text += cells.reduce((sum, cell) => sum + cell.length, 0);
    if (text > input.maxText) return { error: "tooLarge" };
    const card = cards.get(Number(row.id));
    const language = card ? languages.get(card.deck) : undefined;
    // The note's sound: the first it names, in field order (ADR 126).
    const sound = firstSoundName(cells);
    if (sound) sounds.add(sound);
    // A note our export tagged as a known word (ADR 126) comes back as one.
    const known = ` ${String(row.tags ?? "").toLowerCase()} `.includes(" polyglot::known ");
    lines.push(
      JSON.stringify({
        f: cells,
        r: card ? reviews.ofCard.get(card.id) : [],
        ...(language ? { l: language } : {}),
        ...(sound ? { s: sound } : {}),
        ...(known ? { k: 1 } : {}),
      }),
    );
  }
  const main = [...usage].sort((a, b) => b[1] - a[1])[0]?.[0];
  const fields = ((main ? fieldNames.get(main) : undefined) ?? [])
    .slice(0, input.maxFields)
    .map((name) => String(name).replaceAll("\u0000", "").slice(0, 200));
  const header = { format: input.format, layout: input.layout, fields, omitted: reviews.leftOut };
  return {
    content: [JSON.stringify(header), ...lines].join("\n"),
    notes: lines.length,
    reviewsLeftOut: reviews.leftOut,
    sounds: [...sounds],
  };
}

/** The first `[sound:name]` of a note's fields, in field order (Core decks name the word's sound before the sentence's). */
export function firstSoundName(fields: string[]): string | null {
  for (const field of fields) {
    const start = field.indexOf("[sound:");
    if (start === -1) continue;
    const end = field.indexOf("]", start);
    if (end === -1) continue;
    const name = field.slice(start + 7, end).trim();
    if (name) return name.slice(0, 255);
  }
  return null;
}
