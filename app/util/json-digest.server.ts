import { createHash } from "node:crypto";

/** Resolves on a later turn of the event loop: timers and sockets are served before the work goes on. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The sha256 (hex) of `JSON.stringify(items)`, hashed `perTurn` items at a time with a turn of the event loop between
 * two slices, so a large array (the shipped lists at start) does not hold the loop. The digest is the same as hashing
 * the whole text at once: an array's JSON is its items' JSON joined by commas inside brackets.
 */
export async function jsonDigest(items: readonly unknown[], perTurn: number): Promise<string> {
  const hash = createHash("sha256").update("[");
  for (let start = 0; start < items.length; start += perTurn) {
    if (start > 0) await nextTurn();
    const slice = items.slice(start, start + perTurn).map((item) => JSON.stringify(item) ?? "null");
    hash.update((start > 0 ? "," : "") + slice.join(","));
  }
  return hash.update("]").digest("hex");
}
