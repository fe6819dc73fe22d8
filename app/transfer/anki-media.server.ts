import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type yauzl from "yauzl";
import { MAX_SOUND_BYTES, soundKind, type SoundKind } from "../learning/sounds";

/**
 * The sounds of an Anki package (ADR 126): the `media` map (JSON: zip entry → file name) is read and checked, the
 * sounds the notes name are found among the entries and measured by their declared sizes before anything is
 * unpacked; then each is unpacked through a byte counter and known by its first bytes.
 */

/** The most the `media` map may weigh: 50,000 names of a few dozen characters. */
const MAX_MEDIA_MAP_BYTES = 4 * 1024 * 1024;

/** Why a package's sounds are refused: keys under `learning:import.packageErrors`. */
export type MediaError = "mediaPath" | "soundTooLarge" | "soundsOverLimit" | "unsupportedSound" | "unreadable";
export type MediaRefusal = { error: MediaError; name?: string };

/** A sound to unpack: the name the notes use and its entry in the archive. */
export type PlannedSound = { name: string; entry: string; size: number };
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
  read: (entry: yauzl.Entry, limit: number) => Promise<Buffer | null>;
};

/**
 * Which entries hold the sounds the notes name (`wanted`), checked against the limits: every name of the map must be
 * plain (an entry or a name with a path is refused as a whole), each sound at most MAX_SOUND_BYTES, all of them
 * within `room` (what is left of the learner's sounds). A sound the map does not hold is left out (decks often name
 * files they do not ship).
 */
export async function planSounds(
  zip: ZipAccess,
  wanted: string[],
  room: number,
): Promise<{ plan: PlannedSound[]; missing: number } | MediaRefusal> {
  const mediaEntry = zip.entries.find((entry) => entry.fileName === "media");
  if (!mediaEntry || wanted.length === 0) return { plan: [], missing: wanted.length };
  if (mediaEntry.uncompressedSize > MAX_MEDIA_MAP_BYTES) return { error: "unreadable" };
  const bytes = await zip.read(mediaEntry, MAX_MEDIA_MAP_BYTES);
  let map: unknown;
  try {
    map = JSON.parse(bytes?.toString("utf8") ?? "");
  } catch {
    // A newer layout's map (zstd-compressed protobuf): its sounds are not read (ADR 126).
    return { plan: [], missing: wanted.length };
  }
  if (typeof map !== "object" || map === null || Array.isArray(map)) return { error: "unreadable" };
  const entryOf = new Map<string, string>();
  for (const [entry, name] of Object.entries(map)) {
    if (typeof name !== "string" || !plainName(entry) || !plainName(name))
      return { error: "mediaPath", name: String(name).slice(0, 100) };
    entryOf.set(name, entry);
  }
  const byName = new Map(zip.entries.map((entry) => [entry.fileName, entry]));
  const plan: PlannedSound[] = [];
  let total = 0;
  for (const name of wanted) {
    const entry = byName.get(entryOf.get(name) ?? "\u0000");
    if (!entry) continue;
    if (entry.uncompressedSize > MAX_SOUND_BYTES) return { error: "soundTooLarge", name };
    total += entry.uncompressedSize;
    if (total > room) return { error: "soundsOverLimit" };
    plan.push({ name, entry: entry.fileName, size: entry.uncompressedSize });
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
    const data = await zip.read(byName.get(planned.entry)!, MAX_SOUND_BYTES);
    if (!data) return { error: "soundTooLarge", name: planned.name };
    const kind = soundKind(data.subarray(0, 16));
    if (!kind) return { error: "unsupportedSound", name: planned.name };
    const hash = createHash("sha256").update(data).digest("hex");
    await keep({ name: planned.name, kind, hash, size: data.length, data });
  }
  return null;
}

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
