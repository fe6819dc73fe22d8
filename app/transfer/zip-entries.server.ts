import { Transform, type Readable } from "node:stream";
import yauzl from "yauzl";
import {
  bytesOf,
  unpackSounds,
  type CheckedSound,
  type MediaError,
  type PlannedSound,
  type ZipAccess,
} from "./anki-media.server";

/** A zip archive on disk read with yauzl from its central directory (ADR 059), an entry at a time. */

export const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false },
      (e, zip) => (e || !zip ? reject(e ?? new Error("no zip")) : resolve(zip)),
    ),
  );

/** The archive's entries from its central directory, read one at a time. */
export function entriesOf(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once("end", () => resolve(entries));
    zip.once("error", reject);
    zip.readEntry();
  });
}

export const openEntry = (zip: yauzl.ZipFile, entry: yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (e, stream) => (e || !stream ? reject(e ?? new Error("no stream")) : resolve(stream))),
  );

export class TooLarge extends Error {}

/** Passes bytes through and fails once more than `limit` have passed (a stream that unpacks beyond its word). */
export function capped(limit: number) {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > limit ? new TooLarge() : null, chunk);
    },
  });
}

/** An open archive as the sound reader uses it. */
export const access = (zip: yauzl.ZipFile, entries: yauzl.Entry[]): ZipAccess => ({
  entries,
  read: async (entry, limit) => bytesOf(await openEntry(zip, entry), limit),
});

/**
 * Unpacks the planned sounds of the package in `file` (read before by `readAnkiPackage`), handing each to `keep`;
 * a refusal when one is not a sound this app plays.
 */
export async function readPackageSounds(
  file: string,
  plan: PlannedSound[],
  keep: (sound: CheckedSound) => Promise<void>,
): Promise<{ error: MediaError; name?: string } | null> {
  if (plan.length === 0) return null;
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    return { error: "unreadable" };
  }
  try {
    return await unpackSounds(access(zip, await entriesOf(zip)), plan, keep);
  } finally {
    zip.close();
  }
}
