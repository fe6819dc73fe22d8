import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

/**
 * Anki packages built in tests independently of the app's exporter: zip archives written and read with zlib alone,
 * collections written with raw SQL in Anki's documented schemas.
 */

/**
 * The zip entries of an archive, read here with zlib alone (stored or deflated entries, from the central directory):
 * independent of the zip library the app uses.
 */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = archive.readUInt16LE(at + 10);
    const compressed = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.toString("utf8", at + 46, at + 46 + nameLength);
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(start, start + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** A zip archive written here with zlib alone (deflated entries; empty ones stored), as another tool would. */
export function zip(files: [string, Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const method = content.length === 0 ? 0 : 8;
    const data = method === 8 ? deflateRawSync(content) : content;
    const nameBytes = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(method, 8);
    header.writeUInt32LE(crc32(content), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(content), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Opens an SQLite file's bytes in a temporary file (node:sqlite reads files). */
export function openCollection(bytes: Buffer) {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-test-"));
  writeFileSync(path.join(dir, "collection"), bytes);
  const db = new DatabaseSync(path.join(dir, "collection"));
  return {
    db,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Anki's schema 11 tables, written here from the documented collection structure (not by the app's exporter). */
const SCHEMA_11 = `
create table col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
  ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
  models text not null, decks text not null, dconf text not null, tags text not null);
create table notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
  usn integer not null, tags text not null, flds text not null, sfld text not null, csum integer not null,
  flags integer not null, data text not null);
create table cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
  mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
  ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
  odue integer not null, odid integer not null, flags integer not null, data text not null);
create table revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
  ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
create table graves (usn integer not null, oid integer not null, type integer not null);`;

/** Schema 18 (collection.anki21b): note types, fields and decks in their own tables, col's JSON columns empty. */
const SCHEMA_18 = `${SCHEMA_11}
create table notetypes (id integer primary key, name text not null, mtime_secs integer not null, usn integer not null,
  config blob not null);
create table fields (ntid integer not null, ord integer not null, name text not null, config blob not null,
  primary key (ntid, ord)) without rowid;
create table decks (id integer primary key, name text not null, mtime_secs integer not null, usn integer not null,
  common blob not null, kind blob not null);`;

const MODEL = 1342697561419;
const DAY = 86_400_000;

/**
 * A shared deck as another tool writes it: a "Basic (and reversed card)" note type with Front, Back and Audio, HTML and
 * media references in the fields, two cards for the first note, and its review log (three graded reviews of the first
 * card, a manual reschedule, a review of the reversed card).
 */
export function sharedDeck(schema: 11 | 18): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-deck-"));
  const file = path.join(dir, "collection");
  const db = new DatabaseSync(file);
  db.exec(schema === 11 ? SCHEMA_11 : SCHEMA_18);
  const names = ["Front", "Back", "Audio"];
  const models =
    schema === 11
      ? JSON.stringify({
          [MODEL]: { id: MODEL, name: "Basic (and reversed card)", flds: names.map((name, ord) => ({ name, ord })) },
        })
      : "";
  db.prepare("insert into col values (1, 1332961200, 0, 0, ?, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(
    schema,
    models,
    schema === 11 ? JSON.stringify({ 1: { id: 1, name: "German::Animals" } }) : "",
  );
  if (schema === 18) {
    db.prepare("insert into notetypes values (?, 'Basic (and reversed card)', 0, 0, x'')").run(MODEL);
    for (const [ord, name] of names.entries())
      db.prepare("insert into fields values (?, ?, ?, x'')").run(MODEL, ord, name);
    db.exec("insert into decks values (1, 'German::Animals', 0, 0, x'', x'')");
  }
  const note = db.prepare("insert into notes values (?, ?, ?, 0, -1, '', ?, ?, 0, 0, '')");
  const fields = [
    ["<b>der Hund</b>", "<div>the dog</div><div>(animal)</div>", "[sound:hund.mp3]"],
    ['das Haus&nbsp;<img src="haus.jpg">', "the house", ""],
    ["Kat\u0000ze", "cat &amp; kitten<br>pet", "[sound:katze.mp3]"],
  ];
  for (const [i, f] of fields.entries()) note.run(1000 + i, `guid${i}`, MODEL, f.join("\x1f"), f[0]!);
  const card = db.prepare("insert into cards values (?, ?, 1, ?, 0, -1, 2, 2, 100, 10, 2500, 3, 0, 0, 0, 0, 0, '')");
  card.run(2000, 1000, 0);
  card.run(2001, 1000, 1);
  card.run(2002, 1001, 0);
  card.run(2003, 1002, 0);
  const review = db.prepare("insert into revlog values (?, ?, -1, ?, 1, 0, 2500, 6000, ?)");
  const start = Date.now() - 30 * DAY;
  review.run(start, 2000, 3, 0);
  review.run(start + DAY, 2000, 3, 1);
  review.run(start + 5 * DAY, 2000, 4, 1);
  review.run(start + 6 * DAY, 2000, 0, 4);
  review.run(start + 7 * DAY, 2001, 1, 1);
  db.close();
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** The stub a current Anki puts beside collection.anki21b for older versions: one note asking to update. */
export function legacyStub(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-stub-"));
  const file = path.join(dir, "collection");
  const db = new DatabaseSync(file);
  db.exec(SCHEMA_11);
  db.prepare("insert into col values (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, '{}', '{}', '{}')").run(
    JSON.stringify({
      1: {
        id: 1,
        name: "Basic",
        flds: [
          { name: "Front", ord: 0 },
          { name: "Back", ord: 1 },
        ],
      },
    }),
  );
  db.exec(
    "insert into notes values (1, 'g', 1, 0, -1, '', 'Please update to the latest Anki version, then import the .colpkg/.apkg file again.\x1f', '', 0, 0, '')",
  );
  db.close();
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/**
 * A large shared deck: `notes` Basic notes of one card each, every card with `reviews` graded reviews a day apart, in
 * the old layout (schema 11), zipped as `collection.anki2`. For the bounds on an import's work per turn.
 */
export function largeDeck(notes: number, reviews: number): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-large-"));
  const file = path.join(dir, "collection");
  const db = new DatabaseSync(file);
  db.exec(SCHEMA_11);
  const models = JSON.stringify({
    [MODEL]: { id: MODEL, name: "Basic", flds: ["Front", "Back"].map((name, ord) => ({ name, ord })) },
  });
  db.prepare("insert into col values (1, 1332961200, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(
    models,
    JSON.stringify({ 1: { id: 1, name: "Large" } }),
  );
  const note = db.prepare("insert into notes values (?, ?, ?, 0, -1, '', ?, ?, 0, 0, '')");
  const card = db.prepare("insert into cards values (?, ?, 1, 0, 0, -1, 2, 2, 100, 10, 2500, ?, 0, 0, 0, 0, 0, '')");
  const review = db.prepare("insert into revlog values (?, ?, -1, ?, 1, 0, 2500, 6000, 1)");
  const start = Date.now() - (reviews + 2) * DAY;
  db.exec("begin");
  for (let n = 0; n < notes; n++) {
    note.run(10_000 + n, `large${n}`, MODEL, `Wort${n}\x1fword ${n}`, `Wort${n}`);
    card.run(1_000_000 + n, 10_000 + n, reviews);
    for (let r = 0; r < reviews; r++) review.run(start + r * DAY + n, 1_000_000 + n, 2 + ((n + r) % 3));
  }
  db.exec("commit");
  db.close();
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return zip([
    ["collection.anki2", bytes],
    ["media", Buffer.from("{}")],
  ]);
}

/**
 * A package of a collection in schema 11 with a Basic note type, its `notes` table replaced by `notesSql` when given,
 * filled by `fill`.
 */
export function craftedDeck(notesSql: string | null, fill?: (db: DatabaseSync) => void): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-crafted-"));
  const file = path.join(dir, "collection");
  const db = new DatabaseSync(file);
  db.exec(notesSql === null ? SCHEMA_11 : SCHEMA_11.replace(/create table notes \([^;]*;/, notesSql));
  const models = JSON.stringify({
    [MODEL]: { id: MODEL, name: "Basic", flds: ["Front", "Back"].map((name, ord) => ({ name, ord })) },
  });
  db.prepare("insert into col values (1, 1332961200, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(
    models,
    JSON.stringify({ 1: { id: 1, name: "Crafted" } }),
  );
  fill?.(db);
  db.close();
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return zip([
    ["collection.anki2", bytes],
    ["media", Buffer.from("{}")],
  ]);
}

/**
 * A package of a few hundred bytes whose `notes` is a recursive view of `rows` rows: reading it costs whatever the
 * package says.
 */
export function recursiveViewDeck(rows: number): Buffer {
  return craftedDeck(
    `create view notes as with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows})
      select i as id, 'g' || i as guid, ${MODEL} as mid, 0 as mod, -1 as usn, '' as tags,
        'Wort' || i || char(31) || 'word' as flds, '' as sfld, 0 as csum, 0 as flags, '' as data from n;`,
  );
}

/**
 * A package whose `notes` is a view repeating one row of `megabytes` MB `rows` times: sorting it by id spills all of it
 * to SQLite's temporary files.
 */
export function repeatedRowDeck(megabytes: number, rows: number): Buffer {
  return craftedDeck(
    `create view notes as with recursive n(i) as (select 1 union all select i + 1 from n where i < ${rows})
      select ${rows} - i as id, 'g' as guid, ${MODEL} as mid, 0 as mod, -1 as usn, '' as tags,
        hex(zeroblob(${megabytes * 512 * 1024})) as flds, '' as sfld, 0 as csum, 0 as flags, '' as data from n;`,
  );
}

/** A package with one note whose card has `reviews` graded reviews, twelve hours apart, the newest a day ago. */
export function longHistoryDeck(reviews: number): Buffer {
  return craftedDeck(null, (db) => {
    db.exec(`insert into notes values (10000, 'long', ${MODEL}, 0, -1, '', 'Wort' || char(31) || 'word', 'Wort', 0, 0, '');
      insert into cards values (20000, 10000, 1, 0, 0, -1, 2, 2, 100, 10, 2500, ${reviews}, 0, 0, 0, 0, 0, '')`);
    const review = db.prepare("insert into revlog values (?, 20000, -1, ?, 1, 0, 2500, 6000, ?)");
    const newest = Date.now() - DAY;
    db.exec("begin");
    for (let r = 0; r < reviews; r++)
      review.run(newest - (reviews - 1 - r) * (DAY / 2), r % 7 === 3 ? 1 : 3, r === 0 ? 0 : 1);
    db.exec("commit");
  });
}

/**
 * A shared deck of one note type (schema 11) as another tool writes it: the type's field names and one note a row of
 * fields (Anki's HTML), each note with one new card.
 */
export function noteTypeDeck(fieldNames: string[], notes: string[][], deckName = "Shared"): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-deck-"));
  const file = path.join(dir, "collection");
  const db = new DatabaseSync(file);
  db.exec(SCHEMA_11);
  const models = JSON.stringify({
    [MODEL]: { id: MODEL, name: "Shared", flds: fieldNames.map((name, ord) => ({ name, ord })) },
  });
  db.prepare("insert into col values (1, 1332961200, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')").run(
    models,
    JSON.stringify({ 1: { id: 1, name: deckName } }),
  );
  const note = db.prepare("insert into notes values (?, ?, ?, 0, -1, '', ?, ?, 0, 0, '')");
  const card = db.prepare("insert into cards values (?, ?, 1, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')");
  db.exec("begin");
  for (const [i, fields] of notes.entries()) {
    note.run(1000 + i, `guid${i}`, MODEL, fields.join("\x1f"), fields[0] ?? "");
    card.run(100_000 + i, 1000 + i);
  }
  db.exec("commit");
  db.close();
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  return bytes;
}

/** A package of a collection, as Anki writes one (with its media list). */
export const packageOf = (collection: Buffer) =>
  zip([
    ["collection.anki2", collection],
    ["media", Buffer.from("{}")],
  ]);
