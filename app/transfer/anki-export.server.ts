import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { ZipFile } from "yazl";
import type { ExportDocument } from "./export.server";

/**
 * An Anki package (`.apkg`, ADR 059): a zip holding `collection.anki2`, an SQLite database in Anki's schema 11 (the
 * layout every Anki since 2.1 and AnkiDroid import), and `media`, a JSON map of media files (none here). The tables
 * and the `models`/`decks` JSON in `col` follow Anki's documented collection structure; fields are separated by \x1f.
 */

/** The note type's fields, in order; the importer maps them back by these names (Reading came last, later). */
export const ANKI_FIELDS = ["Term", "Meaning", "Example", "Notes", "Reading", "Sound"] as const;
/** The tag of a note that is a known word (ADR 126): its card suspended, and it comes back as a known word. */
export const KNOWN_TAG = "polyglot::known";
const MODEL_ID = 1_700_000_000_000;
const DECK_BASE_ID = 1_700_000_000_001;
const DAY_MS = 86_400_000;

const SCHEMA = `
create table col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
  flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
  odue integer not null, odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);
create index ix_notes_usn on notes (usn);
create index ix_cards_usn on cards (usn);
create index ix_revlog_usn on revlog (usn);
create index ix_cards_nid on cards (nid);
create index ix_cards_sched on cards (did, queue, due);
create index ix_revlog_cid on revlog (cid);
create index ix_notes_csum on notes (csum);
`;

/** Plain text as an Anki field (HTML): markup characters escaped, line breaks as `<br>`. */
export function toField(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\n", "<br>");
}

/** Anki's duplicate check: the first 8 hex digits of the SHA-1 of the first field. */
const checksum = (text: string) => parseInt(createHash("sha1").update(text).digest("hex").slice(0, 8), 16);
/** A stable note id across exports (Anki updates a note with the same guid instead of adding it twice). */
const guidOf = (language: string, text: string) =>
  createHash("sha1").update(`${language}\u0000${text}`).digest("base64url").slice(0, 10);

function model(now: number) {
  const field = (name: string, ord: number) => ({
    name,
    ord,
    sticky: false,
    rtl: false,
    font: "Arial",
    size: 20,
    media: [],
  });
  return {
    [MODEL_ID]: {
      id: MODEL_ID,
      name: "Polyglot",
      type: 0,
      mod: Math.floor(now / 1000),
      usn: -1,
      sortf: 0,
      did: DECK_BASE_ID,
      tmpls: [
        {
          name: "Card 1",
          ord: 0,
          qfmt: "{{Term}}",
          afmt: '{{FrontSide}}<hr id="answer">{{#Reading}}{{Reading}}<br>{{/Reading}}{{Meaning}}<br><br>{{Example}}<br><br>{{Notes}}{{Sound}}',
          bqfmt: "",
          bafmt: "",
          did: null,
          bfont: "",
          bsize: 0,
        },
      ],
      flds: ANKI_FIELDS.map(field),
      css: ".card { font-family: arial; font-size: 20px; text-align: center; color: black; background-color: white; }",
      latexPre:
        "\\documentclass[12pt]{article}\n\\special{papersize=3in,5in}\n\\usepackage[utf8]{inputenc}\n\\usepackage{amssymb,amsmath}\n\\pagestyle{empty}\n\\setlength{\\parindent}{0in}\n\\begin{document}\n",
      latexPost: "\\end{document}",
      latexsvg: false,
      req: [[0, "any", [0]]],
      tags: [],
      vers: [],
    },
  };
}

function deck(id: number, name: string, now: number) {
  return {
    id,
    name,
    mod: Math.floor(now / 1000),
    usn: -1,
    desc: "",
    dyn: 0,
    conf: 1,
    collapsed: false,
    browserCollapsed: false,
    extendNew: 0,
    extendRev: 0,
    newToday: [0, 0],
    revToday: [0, 0],
    lrnToday: [0, 0],
    timeToday: [0, 0],
  };
}

const DECK_CONF = {
  1: {
    id: 1,
    name: "Default",
    mod: 0,
    usn: 0,
    maxTaken: 60,
    autoplay: true,
    timer: 0,
    replayq: true,
    dyn: false,
    new: { bury: false, delays: [1, 10], initialFactor: 2500, ints: [1, 4, 0], order: 1, perDay: 20 },
    rev: { bury: false, ease4: 1.3, ivlFct: 1, maxIvl: 36500, perDay: 200, hardFactor: 1.2 },
    lapse: { delays: [10], leechAction: 1, leechFails: 8, minInt: 1, mult: 0 },
  },
};

/**
 * Anki's card type and queue of an FSRS state (0 new, 1 learning, 2 review, 3 relearning: the same numbers in both;
 * a relearning card waits in the learning queue). An FSRS rating 0 (a manual change) is a "manual" revlog entry.
 */
const QUEUE = [0, 1, 2, 1];
/** Anki's revlog type by the FSRS state before the review: learn (new or learning), review, relearn. */
const REVLOG_TYPE = [0, 0, 1, 2];
const MANUAL = 4;

/**
 * Unique millisecond ids: Anki's ids are creation times; an item whose moment is taken gets one past the highest id
 * given so far (terms imported together share their creation time: no search through the taken ones).
 */
function idSource() {
  const used = new Set<number>();
  let highest = 0;
  return (ms: number) => {
    let id = Math.max(1, Math.floor(ms));
    if (used.has(id)) id = highest + 1;
    used.add(id);
    highest = Math.max(highest, id);
    return id;
  };
}

/** Rows written between turns of the event loop (node:sqlite is synchronous). */
const ROWS_PER_TURN = 200;

/** A term's sound as the package takes it: read from the database when the archive reaches it. */
export type PackageSound = { name: string; hash: string; read: () => Promise<Buffer> };

/**
 * The export document as an Anki package: a deck per study language (named by `deckName`), one note and one card per
 * term with its FSRS schedule (due, interval, memory state in the card's data, where Anki's FSRS keeps it) and the
 * review history as revlog rows; each term's sound (`soundOf`, by language and text) as a media file named in its
 * Sound field; each known word a note tagged KNOWN_TAG whose card is suspended. The archive is written as a stream,
 * one sound in memory at a time.
 */
export async function ankiPackage(
  document: ExportDocument,
  deckName: (language: string) => string,
  now = new Date(),
  soundOf: (language: string, text: string) => PackageSound | undefined = () => undefined,
): Promise<ReadableStream<Uint8Array>> {
  const media = mediaNames();
  const dir = await mkdtemp(path.join(tmpdir(), "polyglot-apkg-"));
  try {
    const file = path.join(dir, "collection.anki2");
    const db = new DatabaseSync(file);
    try {
      writeCollection(db, document, deckName, now.getTime());
      const rows = document.terms;
      db.exec("begin");
      const insertNote = db.prepare("insert into notes values (?, ?, ?, ?, -1, '', ?, ?, ?, 0, '')");
      const insertCard = db.prepare("insert into cards values (?, ?, ?, 0, ?, -1, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?)");
      const insertReview = db.prepare("insert into revlog values (?, ?, -1, ?, ?, ?, ?, 0, ?)");
      const languages = languagesOf(document);
      const crt = collectionStart(document, now.getTime());
      const noteId = idSource();
      const cardId = idSource();
      const reviewId = idSource();
      const mod = Math.floor(now.getTime() / 1000);
      for (const [index, term] of rows.entries()) {
        if (index > 0 && index % ROWS_PER_TURN === 0) await nextTurn();
        const created = Date.parse(term.createdAt ?? "") || now.getTime();
        const example = term.examples
          .map((e) => (e.translation ? `${e.sentence} | ${e.translation}` : e.sentence))
          .join("\n");
        const sound = soundOf(term.language, term.text);
        const fields = [term.text, term.meaning, example, term.notes, term.reading].map(toField);
        fields.push(sound ? `[sound:${media.add(sound)}]` : "");
        const nid = noteId(created);
        insertNote.run(
          nid,
          guidOf(term.language, term.text),
          MODEL_ID,
          mod,
          fields.join("\x1f"),
          fields[0]!,
          checksum(fields[0]!),
        );
        const card = term.card;
        const due = Date.parse(card.due ?? "") || now.getTime();
        const state = card.state;
        const ankiDue =
          state === 0 ? index + 1 : state === 2 ? Math.floor((due - crt * 1000) / DAY_MS) : Math.floor(due / 1000);
        const cid = cardId(created);
        insertCard.run(
          cid,
          nid,
          DECK_BASE_ID + languages.indexOf(term.language),
          mod,
          state,
          QUEUE[state] ?? 0,
          ankiDue,
          state === 2 ? card.scheduledDays : 0,
          state === 0 ? 0 : 2500,
          card.reps,
          card.lapses,
          state === 0 ? "" : JSON.stringify({ s: card.stability, d: card.difficulty }),
        );
        let lastIvl = 0;
        for (const review of term.reviews) {
          const manual = review.rating === 0;
          insertReview.run(
            reviewId(Date.parse(review.reviewedAt ?? "") || now.getTime()),
            cid,
            review.rating,
            review.scheduledDays,
            lastIvl,
            manual ? 0 : 2500,
            manual ? MANUAL : (REVLOG_TYPE[review.state] ?? 1),
          );
          lastIvl = review.scheduledDays;
        }
      }
      writeKnownWords(db, document, languages, { noteId, cardId, mod, start: rows.length });
      db.exec("commit");
    } finally {
      db.close();
    }
    return zip(await readFile(file), media.files);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The collection's creation day (seconds): review cards' due dates count days from it. */
function collectionStart(document: ExportDocument, now: number) {
  const first = Math.min(now, ...document.terms.map((term) => Date.parse(term.createdAt ?? "") || now));
  return Math.floor(first / DAY_MS) * (DAY_MS / 1000);
}

function writeCollection(
  db: DatabaseSync,
  document: ExportDocument,
  deckName: (language: string) => string,
  now: number,
) {
  db.exec(SCHEMA);
  const languages = languagesOf(document);
  const decks: Record<string, ReturnType<typeof deck>> = { 1: deck(1, "Default", now) };
  for (const [index, language] of languages.entries())
    decks[DECK_BASE_ID + index] = deck(DECK_BASE_ID + index, deckName(language), now);
  const conf = {
    nextPos: document.terms.length + 1,
    estTimes: true,
    activeDecks: [1],
    sortType: "noteFld",
    timeLim: 0,
    sortBackwards: false,
    addToCur: true,
    curDeck: 1,
    newSpread: 0,
    dueCounts: true,
    curModel: String(MODEL_ID),
    collapseTime: 1200,
  };
  db.prepare("insert into col values (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')").run(
    collectionStart(document, now),
    now,
    now,
    JSON.stringify(conf),
    JSON.stringify(model(now)),
    JSON.stringify(decks),
    JSON.stringify(DECK_CONF),
  );
}

/** The study languages of the terms and known words, a deck each, in order of first appearance. */
const languagesOf = (document: ExportDocument) => [
  ...new Set([...document.terms.map((term) => term.language), ...document.knownWords.map((known) => known.language)]),
];

/**
 * The package's media files, numbered in order: a sound keeps its name unless another sound took it, then it is named
 * by its hash; the same bytes named twice are one file.
 */
function mediaNames() {
  const files: PackageSound[] = [];
  const byName = new Map<string, string>();
  return {
    files,
    add(sound: PackageSound): string {
      const plain = sound.name.replace(/[/\\\]\u0000-\u001f]/g, "_") || "sound";
      const taken = byName.get(plain);
      const name = taken === undefined || taken === sound.hash ? plain : `${sound.hash.slice(0, 16)}-${plain}`;
      if (!byName.has(name)) files.push({ ...sound, name });
      byName.set(name, sound.hash);
      return name;
    },
  };
}

/** Known words as notes of the Term field alone, tagged KNOWN_TAG, each with a suspended new card. */
function writeKnownWords(
  db: DatabaseSync,
  document: ExportDocument,
  languages: string[],
  ids: { noteId: (ms: number) => number; cardId: (ms: number) => number; mod: number; start: number },
) {
  const insertNote = db.prepare("insert into notes values (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')");
  const insertCard = db.prepare("insert into cards values (?, ?, ?, 0, ?, -1, 0, -1, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')");
  for (const [index, known] of document.knownWords.entries()) {
    const marked = Date.parse(known.markedAt ?? "") || ids.mod * 1000;
    const fields = [toField(known.word), "", "", "", "", ""];
    const nid = ids.noteId(marked);
    const guid = guidOf(known.language, `known\u0000${known.word}`);
    insertNote.run(
      nid,
      guid,
      MODEL_ID,
      ids.mod,
      ` ${KNOWN_TAG} `,
      fields.join("\x1f"),
      fields[0]!,
      checksum(fields[0]!),
    );
    const deckId = DECK_BASE_ID + languages.indexOf(known.language);
    insertCard.run(ids.cardId(marked), nid, deckId, ids.mod, ids.start + index + 1);
  }
}

/** The archive as a stream: the collection, the media map, then each sound read when the archive reaches it. */
function zip(collection: Buffer, sounds: PackageSound[]): ReadableStream<Uint8Array> {
  const archive = new ZipFile();
  archive.addBuffer(collection, "collection.anki2");
  const map = Object.fromEntries(sounds.map((sound, index) => [String(index), sound.name]));
  archive.addBuffer(Buffer.from(JSON.stringify(map)), "media");
  // Sounds are compressed already: stored as they are.
  for (const [index, sound] of sounds.entries())
    archive.addReadStream(
      Readable.from(
        (async function* () {
          yield await sound.read();
        })(),
      ),
      String(index),
      { compress: false },
    );
  archive.end();
  return Readable.toWeb(archive.outputStream as Readable) as ReadableStream<Uint8Array>;
}
