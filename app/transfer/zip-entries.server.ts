import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { constants, createZstdDecompress } from "node:zlib";
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

/**
 * The largest window a zstd frame may ask for (2^24 bytes, 16 MiB): a frame's window is memory the decompressor
 * takes. Anki writes frames of 2 MiB windows; `zstd -19` asks for 8 MiB, only `--ultra` and `--long` for more (ADR 138).
 */
export const ZSTD_WINDOW_LOG_MAX = 24;

/** A zstd decompressor whose memory is bounded by ZSTD_WINDOW_LOG_MAX (a frame asking for more is an error). */
export const zstdDecompressor = () =>
  createZstdDecompress({ params: { [constants.ZSTD_d_windowLogMax]: ZSTD_WINDOW_LOG_MAX } });

/**
 * A zstd stream's bytes, or null once more than `limit` have come out: counted while unpacking, so a frame that unpacks
 * to far more (a zstd bomb) stops there. A stream that is not zstd is an error.
 */
export async function unzstdBytes(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  try {
    await pipeline(stream, zstdDecompressor(), capped(limit), async (bytes: AsyncIterable<Buffer>) => {
      for await (const chunk of bytes) chunks.push(chunk);
    });
  } catch (error) {
    if (error instanceof TooLarge) return null;
    throw error;
  }
  return Buffer.concat(chunks);
}

/** An open archive as the sound reader uses it. */
export const access = (zip: yauzl.ZipFile, entries: yauzl.Entry[]): ZipAccess => ({
  entries,
  read: async (entry, limit, zstd = false) =>
    zstd ? unzstdBytes(await openEntry(zip, entry), limit) : bytesOf(await openEntry(zip, entry), limit),
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
