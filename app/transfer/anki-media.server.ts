import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type yauzl from "yauzl";
import { MAX_SOUND_BYTES, soundKind, type SoundKind } from "../learning/sounds";
import { readMediaEntries, type ListedMedia } from "./anki-media-list.server";

/**
 * The sounds of an Anki package (ADR 126, ADR 138): the `media` list (JSON: zip entry → file name; in a
 * `collection.anki21b` package, zstd-compressed protobuf with each file's size and SHA-1) is read and checked, the
 * sounds the notes name are found among the entries and measured by their declared sizes before anything is unpacked;
 * then each is unpacked (through zstd in the newer layout) through a byte counter and known by its first bytes.
 */

/** The most the `media` list may weigh unpacked: 50,000 names of a few dozen characters. */
const MAX_MEDIA_MAP_BYTES = 4 * 1024 * 1024;
/** More files in one archive (or its media list) than any shared deck holds (its media are numbered files). */
export const MAX_PACKAGE_ENTRIES = 50_000;

/** Why a package's sounds are refused: keys under `learning:import.packageErrors`. */
export type MediaError =
  "mediaPath" | "soundTooLarge" | "soundsOverLimit" | "unsupportedSound" | "unreadable" | "zipBomb" | "tooManyFiles";
export type MediaRefusal = { error: MediaError; name?: string };

/**
 * A sound to unpack: the name the notes use, its entry in the archive and its size unpacked; in the newer layout the
 * entry is zstd-compressed and the list gives the size and SHA-1 its bytes must have.
 */
export type PlannedSound = { name: string; entry: string; size: number; zstd?: true; sha1?: string | null };
export type CheckedSound = { name: string; kind: SoundKind; hash: string; size: number; data: Buffer };

/** A name that stays inside the package: no folder, no parent, no drive, nothing invisible. */
const plainName = (name: string) =>
  name.length > 0 &&
  name.length <= 255 &&
  name !== "." &&
  name !== ".." &&
  !/[/\\\u0000-\u001f]/.test(name) &&
  !/^[a-z]:/i.test(name);

export type ZipAccess = {
  entries: yauzl.Entry[];
  /** An entry's bytes (unpacked from zstd when `zstd`), or null once more than `limit` come out. */
  read: (entry: yauzl.Entry, limit: number, zstd?: boolean) => Promise<Buffer | null>;
};

/** The JSON list of the older layouts: entry → name; null when it is not an object of names. */
function legacyList(bytes: Buffer): ListedMedia[] | MediaRefusal | null {
  let map: unknown;
  try {
    map = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  if (typeof map !== "object" || map === null || Array.isArray(map)) return { error: "unreadable" };
  const list: ListedMedia[] = [];
  for (const [entry, name] of Object.entries(map)) {
    if (typeof name !== "string") return { error: "mediaPath", name: String(name).slice(0, 100) };
    list.push({ entry, name, size: 0, sha1: null });
  }
  return list;
}

/**
 * The package's media list by the names notes use; null when an older layout's list is not JSON (its sounds are left
 * out, as before ADR 138). Every name must be plain: an entry or a name with a path refuses the package as a whole.
 */
async function mediaFiles(
  zip: ZipAccess,
  media: yauzl.Entry,
  zstd: boolean,
): Promise<Map<string, ListedMedia> | MediaRefusal | null> {
  if (!zstd && media.uncompressedSize > MAX_MEDIA_MAP_BYTES) return { error: "unreadable" };
  let bytes: Buffer | null;
  try {
    bytes = await zip.read(media, MAX_MEDIA_MAP_BYTES, zstd);
  } catch {
    return { error: "unreadable" };
  }
  if (!bytes) return { error: zstd ? "zipBomb" : "unreadable" };
  const listed = zstd ? await readMediaEntries(bytes, MAX_PACKAGE_ENTRIES) : legacyList(bytes);
  if (listed === "tooMany") return { error: "tooManyFiles" };
  if (listed === null) return zstd ? { error: "unreadable" } : null;
  if ("error" in listed) return listed;
  const files = new Map<string, ListedMedia>();
  for (const file of listed) {
    if (!plainName(file.entry) || !plainName(file.name)) return { error: "mediaPath", name: file.name.slice(0, 100) };
    files.set(file.name, file);
  }
  return files;
}

/**
 * Which entries hold the sounds the notes name (`wanted`), checked against the limits: every name of the list must be
 * plain, each sound at most MAX_SOUND_BYTES, all of them within `room` (what is left of the learner's sounds); sizes
 * are the archive's (checked by yauzl while unpacking) or, zstd-compressed, the list's (checked after unpacking). A
 * sound the list does not hold is left out (decks often name files they do not ship).
 */
export async function planSounds(
  zip: ZipAccess,
  wanted: string[],
  room: number,
  zstd = false,
): Promise<{ plan: PlannedSound[]; missing: number } | MediaRefusal> {
  const mediaEntry = zip.entries.find((entry) => entry.fileName === "media");
  if (!mediaEntry || wanted.length === 0) return { plan: [], missing: wanted.length };
  const files = await mediaFiles(zip, mediaEntry, zstd);
  if (files === null) return { plan: [], missing: wanted.length };
  if (!(files instanceof Map)) return files;
  const byName = new Map(zip.entries.map((entry) => [entry.fileName, entry]));
  const plan: PlannedSound[] = [];
  let total = 0;
  for (const name of wanted) {
    const file = files.get(name);
    const entry = file && byName.get(file.entry);
    if (!file || !entry) continue;
    const size = zstd ? file.size : entry.uncompressedSize;
    if (size > MAX_SOUND_BYTES) return { error: "soundTooLarge", name };
    total += size;
    if (total > room) return { error: "soundsOverLimit" };
    plan.push({ name, entry: entry.fileName, size, ...(zstd ? { zstd: true, sha1: file.sha1 } : {}) });
  }
  return { plan, missing: wanted.length - plan.length };
}

/**
 * Unpacks the planned sounds one at a time and hands each to `keep` once its bytes are known to be a sound; the first
 * that is not (or unpacks beyond its declared size) ends the work with a refusal.
 */
export async function unpackSounds(
  zip: ZipAccess,
  plan: PlannedSound[],
  keep: (sound: CheckedSound) => Promise<void>,
): Promise<MediaRefusal | null> {
  const byName = new Map(zip.entries.map((entry) => [entry.fileName, entry]));
  for (const planned of plan) {
    let data: Buffer | null;
    try {
      data = await zip.read(byName.get(planned.entry)!, MAX_SOUND_BYTES, planned.zstd);
    } catch {
      return { error: "unreadable", name: planned.name };
    }
    if (!data) return { error: "soundTooLarge", name: planned.name };
    // Unpacked from zstd, a sound has the size the list gave (the learner's limit was counted with it) and its SHA-1.
    if (planned.zstd && (data.length !== planned.size || (planned.sha1 && sha1Of(data) !== planned.sha1)))
      return { error: "unreadable", name: planned.name };
    const kind = soundKind(data.subarray(0, 16));
    if (!kind) return { error: "unsupportedSound", name: planned.name };
    const hash = createHash("sha256").update(data).digest("hex");
    await keep({ name: planned.name, kind, hash, size: data.length, data });
  }
  return null;
}

const sha1Of = (data: Buffer) => createHash("sha1").update(data).digest("hex");

/** A stream's bytes, or null past `limit`. */
export async function bytesOf(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
