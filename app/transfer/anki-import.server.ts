import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import yauzl from "yauzl";
import { z } from "zod";
import { isStudyLanguage, STUDY_LANGUAGES } from "../learning/vocabulary";
import { log } from "../server/log.server";
import { runInWorker, TaskDeadline, TaskStopped } from "../server/worker-task.server";
import {
  collectionTables,
  deckLanguages,
  draftOf,
  firstCards,
  firstSoundName,
  newestReviews,
  noteFieldNames,
  readCollection,
  type CollectionError,
  type CollectionInput,
} from "./anki-collection.worker";
import { RAW_CELL_LIMIT } from "./import-rows.server";
import { MAX_PACKAGE_ENTRIES, planSounds, type MediaError, type PlannedSound } from "./anki-media.server";
import { access, capped, entriesOf, openEntry, openZip, TooLarge, zstdDecompressor } from "./zip-entries.server";

/**
 * Reads an Anki package (`.apkg`, ADR 059) from a file on disk into a draft the import previews like a table: the
 * note type's field names as the header, one row per note (fields as Anki's HTML, reduced to text by the mapping),
 * and each note's graded reviews from the revlog.
 */

export { MAX_PACKAGE_ENTRIES };
/** The most all entries together may unpack to, by their declared sizes (yauzl checks the real ones against them). */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** The most the collection (the SQLite database, the one entry unpacked to disk) may unpack to. */
export const MAX_COLLECTION_BYTES = 256 * 1024 * 1024;

/** The collection's entry names, newest layout first: a current Anki's package also holds a stub `collection.anki2`. */
const COLLECTIONS = ["collection.anki21b", "collection.anki21", "collection.anki2"] as const;
type Layout = (typeof COLLECTIONS)[number];

export const ANKI_DRAFT_FORMAT = "polyglot-anki-draft";

/** One note as the draft keeps it: its fields and graded reviews ([time in ms, ease]). */
const ankiNote = z.object({
  f: z.array(z.string()),
  r: z.array(z.tuple([z.number(), z.number().int().min(1).max(4)])),
  /** The study language named by the note's deck (our export's `Polyglot::<name> (<code>)`), if any. */
  l: z.string().refine(isStudyLanguage).optional(),
  /** The first sound the note names (`[sound:…]`), kept with the draft when the package holds it. */
  s: z.string().max(255).optional(),
  /** Tagged `polyglot::known` by our export: a known word, not a term. */
  k: z.literal(1).optional(),
});
/**
 * A package as the draft keeps it, in JSON lines: this header (its field names), then one note a line, each parsed and
 * checked by `ankiNote` a slice per turn.
 */
const ankiDraftHeader = z.object({
  format: z.literal(ANKI_DRAFT_FORMAT),
  layout: z.enum(COLLECTIONS),
  fields: z.array(z.string()),
  /** Graded reviews left out, older than the newest MAX_REVIEWS_PER_NOTE of their note. */
  omitted: z.number().int().min(0).optional(),
});
export type AnkiDraft = z.output<typeof ankiDraftHeader> & { notes: z.output<typeof ankiNote>[] };
/** Notes checked per turn of the event loop: a deck of 20,000 notes with their reviews is never checked in one piece. */
const NOTES_PER_TURN = 1000;

export const looksLikeAnkiDraft = (content: string) => content.startsWith(`{"format":"${ANKI_DRAFT_FORMAT}"`);
export async function parseAnkiDraft(content: string): Promise<AnkiDraft | null> {
  const lines = content.split("\n");
  try {
    const header = ankiDraftHeader.safeParse(JSON.parse(lines[0]!));
    if (!header.success) return null;
    const notes: z.output<typeof ankiNote>[] = [];
    for (let start = 1; start < lines.length; start += NOTES_PER_TURN) {
      if (start > 1) await nextTurn();
      for (const line of lines.slice(start, start + NOTES_PER_TURN)) {
        const note = ankiNote.safeParse(JSON.parse(line));
        if (!note.success) return null;
        notes.push(note.data);
      }
    }
    return { ...header.data, notes };
  } catch {
    return null;
  }
}

/** Why a package is refused: translation keys under `learning:import.packageErrors`. */
export type PackageError = "zipBomb" | "tooManyFiles" | "notPackage" | "newerAnki" | CollectionError | MediaError;

export type PackageResult =
  | { content: string; notes: number; sounds: PlannedSound[]; soundsMissing: number }
  | { error: PackageError; looksLike?: BinaryKind; name?: string };

/** What a binary file that is not a package looks like, by its first bytes (magic numbers) or a zip's entries. */
export type BinaryKind =
  | "image"
  | "pdf"
  | "spreadsheet"
  | "document"
  | "zip"
  | "gzip"
  | "sqlite"
  | "audio"
  | "video"
  | "executable"
  | "binary";

const MAGIC: [number[] | string, BinaryKind][] = [
  [[0x89, 0x50, 0x4e, 0x47], "image"],
  [[0xff, 0xd8, 0xff], "image"],
  ["GIF8", "image"],
  ["BM", "image"],
  ["%PDF", "pdf"],
  [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], "spreadsheet"],
  [[0x1f, 0x8b], "gzip"],
  ["SQLite format 3\u0000", "sqlite"],
  ["ID3", "audio"],
  ["OggS", "audio"],
  ["fLaC", "audio"],
  [[0x7f, 0x45, 0x4c, 0x46], "executable"],
  ["MZ", "executable"],
];

export const isZip = (head: Uint8Array) =>
  head[0] === 0x50 &&
  head[1] === 0x4b &&
  (head[2] === 0x03 || head[2] === 0x05) &&
  (head[3] === 0x04 || head[3] === 0x06);

/**
 * The kind of a file's first bytes when they are not text (null for text: CSV, TSV, JSON, plain text in any UTF). A zip
 * is looked into by `readAnkiPackage`.
 */
export function binaryKind(head: Uint8Array): BinaryKind | null {
  const starts = (magic: number[] | string) =>
    (typeof magic === "string" ? [...magic].map((c) => c.charCodeAt(0)) : magic).every((byte, i) => head[i] === byte);
  const known = MAGIC.find(([magic]) => starts(magic))?.[1];
  if (known) return known;
  const ascii = (from: number, text: string) => [...text].every((c, i) => head[from + i] === c.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image";
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "audio";
  if (ascii(4, "ftyp")) return "video";
  if (isZip(head)) return "zip";
  // UTF-16 text carries NULs too, after its byte-order mark.
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return null;
  return head.includes(0) ? "binary" : null;
}

/** What a zip that holds no collection is, by its entries (an Office or OpenDocument file is a zip). */
function zipKind(names: string[]): BinaryKind {
  if (names.some((name) => name.startsWith("xl/"))) return "spreadsheet";
  if (names.some((name) => name.startsWith("word/") || name.startsWith("ppt/"))) return "document";
  if (names.includes("content.xml")) return "document";
  return "zip";
}

/**
 * Reads the package in `file`: checks the archive's entry count and declared sizes before unpacking anything, unpacks
 * only the collection (newest layout present; `.anki21b` through Node's zstd, counted while unpacking) into a temporary
 * directory that is removed afterwards, and reads notes, field names and reviews with node:sqlite, read-only; then plans
 * the sounds the notes name (anki-media.server.ts).
 */
export async function readAnkiPackage(file: string, maxNotes: number, soundRoom = 0): Promise<PackageResult> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    return { error: "unreadable" };
  }
  const dir = await mkdtemp(path.join(tmpdir(), "polyglot-anki-"));
  try {
    if (zip.entryCount > MAX_PACKAGE_ENTRIES) return { error: "tooManyFiles" };
    const entries = await entriesOf(zip);
    const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (unpacked > MAX_UNPACKED_BYTES) return { error: "zipBomb" };
    const names = entries.map((entry) => entry.fileName);
    const layout = COLLECTIONS.find((name) => names.includes(name));
    if (!layout) return { error: "notPackage", looksLike: zipKind(names) };
    const entry = entries.find((e) => e.fileName === layout)!;
    if (entry.uncompressedSize > MAX_COLLECTION_BYTES) return { error: "zipBomb" };
    const collection = path.join(dir, "collection");
    try {
      const stream = await openEntry(zip, entry);
      const out = createWriteStream(collection);
      if (layout === "collection.anki21b")
        await pipeline(stream, zstdDecompressor(), capped(MAX_COLLECTION_BYTES), out);
      else await pipeline(stream, capped(MAX_COLLECTION_BYTES), out);
    } catch (error) {
      if (error instanceof TooLarge) return { error: "zipBomb" };
      return { error: layout === "collection.anki21b" ? "newerAnki" : "unreadable" };
    }
    const read = await readUnpacked(collection, layout, maxNotes);
    if ("error" in read) return read;
    const sounds = await planSounds(access(zip, entries), read.sounds, soundRoom, layout === "collection.anki21b");
    if ("error" in sounds) return sounds;
    return { content: read.content, notes: read.notes, sounds: sounds.plan, soundsMissing: sounds.missing };
  } catch {
    return { error: "unreadable" };
  } finally {
    zip.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Fields of a note offered for mapping (the preview maps at most 50 columns); a package whose note types have more is
 * refused as a whole, never imported without some of its fields.
 */
export const MAX_FIELDS = 50;
const EARLIEST = Date.UTC(2000, 0, 1);
/** Graded reviews kept of one note, the newest: a history longer than any learner's is not a history. */
export const MAX_REVIEWS_PER_NOTE = 1_000;
/** Graded reviews one package may bring in all: 20,000 notes of 50 reviews each. */
const MAX_PACKAGE_REVIEWS = 1_000_000;
/** Characters of field text one package may bring in all (a text file may bring 5 MB). */
export const MAX_PACKAGE_TEXT = 32 * 1024 * 1024;
/** The reading thread's heap (twice the text limit and its draft fit) and time. */
const READ_HEAP_MB = 384;
const READ_DEADLINE_MS = 30_000;

type Unpacked = { content: string; notes: number; sounds: string[] } | { error: PackageError };

/** Reads the unpacked collection on a thread of its own, with a heap limit and a deadline (ADR 089). */
async function readUnpacked(file: string, layout: Layout, maxNotes: number): Promise<Unpacked> {
  const input: CollectionInput = {
    file,
    layout,
    format: ANKI_DRAFT_FORMAT,
    maxNotes,
    maxFields: MAX_FIELDS,
    cellLimit: RAW_CELL_LIMIT,
    maxReviewsPerNote: MAX_REVIEWS_PER_NOTE,
    maxReviews: MAX_PACKAGE_REVIEWS,
    maxText: MAX_PACKAGE_TEXT,
    earliest: EARLIEST,
    latest: Date.now() + 86_400_000,
    languages: [...STUDY_LANGUAGES],
  };
  try {
    const outcome = await runInWorker({
      entry: readCollection,
      helpers: [collectionTables, noteFieldNames, deckLanguages, firstCards, newestReviews, draftOf, firstSoundName],
      module: "node:sqlite",
      input,
      heapMb: READ_HEAP_MB,
      deadlineMs: READ_DEADLINE_MS,
    });
    return "error" in outcome
      ? { error: outcome.error }
      : { content: outcome.content, notes: outcome.notes, sounds: outcome.sounds };
  } catch (error) {
    if (error instanceof TaskDeadline || error instanceof TaskStopped) {
      log.warn("anki package refused", { reason: error.message });
      return { error: "tooLarge" };
    }
    throw error;
  }
}
