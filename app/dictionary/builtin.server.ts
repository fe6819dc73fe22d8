import { jsonDigest } from "../util/json-digest.server";
import { eq } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { shippedLists } from "../learning/public-lists.server";
import { dictionarySources } from "./dictionary.schema";
import { replaceSource } from "./entries.server";
import type { ParsedEntry } from "./formats";

/** The built-in dictionary: the glosses of the app's own public word lists, in every interface language they have. */
export const LIST_SOURCE = "polyglot-lists";

/**
 * Loads the public lists' glosses as dictionary entries (list language → each interface locale), one direction per
 * transaction. Like the lists themselves, nothing is written when the stored digest matches the shipped files, so the
 * image's template database carries them and a start does not write them again.
 */
export async function loadListGlosses(db: Database): Promise<void> {
  const directions = new Map<string, ParsedEntry[]>();
  for (const list of shippedLists())
    for (const term of list.terms)
      for (const [locale, meaning] of Object.entries(term.meaning)) {
        const key = `${list.language}>${locale}`;
        if (!directions.has(key)) directions.set(key, []);
        // "das Haus" is looked up as "haus" (entries.server.ts' key); the headword keeps its article.
        directions.get(key)!.push({
          headword: term.text,
          lemma: null,
          partOfSpeech: term.partOfSpeech,
          reading: null,
          glosses: [meaning],
        });
      }
  const ordered = [...directions.entries()].sort(([a], [b]) => a.localeCompare(b));
  // One direction per turn: at start, the app answers /healthz and /readyz meanwhile.
  const digest = await jsonDigest(ordered, 1);
  const stored = await db
    .select({ digest: dictionarySources.digest })
    .from(dictionarySources)
    .where(eq(dictionarySources.name, LIST_SOURCE));
  if (stored.length === ordered.length && stored.every((row) => row.digest === digest)) return;
  for (const [key, entries] of ordered) {
    const [from, to] = key.split(">") as [string, string];
    await replaceSource(
      db,
      { name: LIST_SOURCE, title: "Polyglot public word lists", licence: "polyglot", url: "", from, to },
      entries,
      digest,
    );
  }
}
