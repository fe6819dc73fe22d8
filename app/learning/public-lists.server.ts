import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { announceDataChange, onDataChange } from "../server/data-changes.server";
import { publicTerms, termExamples, terms } from "./learning.schema";
import { newCard } from "./stage";
import type { Owner } from "./terms.server";
import type { Locale } from "../i18n/locales";
import { inLocale, parseListFile, translationIn, type ListFile } from "./public-list-file";
import type { Level } from "./vocabulary";
import { jsonDigest } from "../util/json-digest.server";

const files = import.meta.glob("./public-lists/*.json", { eager: true, import: "default" });

let parsed: ListFile[] | null = null;

/** The curated lists shipped in the repository, checked once, when the server starts (the files do not change). */
export function shippedLists(): ListFile[] {
  parsed ??= Object.entries(files).map(([file, raw]) => parseListFile(file.split("/").at(-1)!, raw));
  return parsed;
}

/**
 * What the last load wrote is named in the table's comment: a digest of the rows. A start finding the digest of the
 * current files there skips the upsert (a few hundred milliseconds for thousands of terms); only this loader writes
 * the table, so an equal digest means equal rows. The image's template database is loaded at build time this way.
 */
const DIGEST_PREFIX = "shipped lists sha256:";

async function loadedDigest(db: Database): Promise<string | null> {
  const result = await db.execute(sql`select obj_description('public_terms'::regclass, 'pg_class') as comment`);
  const [row] = (result as unknown as { rows: { comment: string | null }[] }).rows;
  return row?.comment?.startsWith(DIGEST_PREFIX) ? row.comment.slice(DIGEST_PREFIX.length) : null;
}

/**
 * Loads the shipped lists into the database as an upsert, so every start may run it: a term already loaded takes the
 * file's current meanings, example and position (a database loaded from older files gets the new per-locale texts),
 * and a term no file holds any more is removed. Nothing is written when the table holds these files' rows already.
 */
export async function loadPublicLists(db: Database): Promise<void> {
  const rows = shippedLists().flatMap((list) =>
    list.terms.map((term, position) => ({
      language: list.language,
      level: list.level,
      text: term.text,
      meanings: term.meaning,
      partOfSpeech: term.partOfSpeech,
      exampleSentence: term.example.sentence,
      exampleTranslations: term.example.translation,
      position,
    })),
  );
  const keyOf = (row: { language: string; level: string; text: string }) =>
    `${row.language}\n${row.level}\n${row.text}`;
  const shipped = new Set(rows.map(keyOf));
  // Hashed a slice per turn: at start, the app answers /healthz and /readyz meanwhile.
  const digest = await jsonDigest(rows, 500);
  if ((await loadedDigest(db)) === digest) return;
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await tx
        .insert(publicTerms)
        .values(rows.slice(i, i + 500))
        .onConflictDoUpdate({
          target: [publicTerms.language, publicTerms.level, publicTerms.text],
          set: {
            meanings: sql`excluded.meanings`,
            partOfSpeech: sql`excluded.part_of_speech`,
            exampleSentence: sql`excluded.example_sentence`,
            exampleTranslations: sql`excluded.example_translations`,
            position: sql`excluded.position`,
          },
          // An unchanged term is not rewritten: a start after no change of the files writes nothing.
          setWhere: sql`(public_terms.meanings, public_terms.part_of_speech, public_terms.example_sentence,
            public_terms.example_translations, public_terms.position) is distinct from (excluded.meanings,
            excluded.part_of_speech, excluded.example_sentence, excluded.example_translations, excluded.position)`,
        });
    }
    const loaded = await tx
      .select({ id: publicTerms.id, language: publicTerms.language, level: publicTerms.level, text: publicTerms.text })
      .from(publicTerms);
    const gone = loaded.filter((row) => !shipped.has(keyOf(row))).map((row) => row.id);
    for (let i = 0; i < gone.length; i += 500) {
      await tx.delete(publicTerms).where(inArray(publicTerms.id, gone.slice(i, i + 500)));
    }
    // A digest (hex) cannot break out of the string literal; COMMENT takes no bind parameters.
    await tx.execute(sql.raw(`comment on table public_terms is '${DIGEST_PREFIX}${digest}'`));
  });
  // Pages drawn before the lists were loaded show stale lists.
  announceDataChange("public-terms");
}

export type PublicList = { language: string; level: Level; terms: number };
type PublicTerm = typeof publicTerms.$inferSelect;

// Shipped data: read from the database once per process (the terms carry their ids), not on every request.
let inMemory: Promise<Map<string, PublicTerm[]>> | null = null;
onDataChange((set) => {
  if (set === "public-terms") inMemory = null;
});

function listsInMemory(db: Database): Promise<Map<string, PublicTerm[]>> {
  inMemory ??= db
    .select()
    .from(publicTerms)
    .orderBy(asc(publicTerms.language), asc(publicTerms.level), asc(publicTerms.position))
    .then((rows) => {
      const lists = new Map<string, PublicTerm[]>();
      for (const row of rows) {
        const key = `${row.language}:${row.level}`;
        const list = lists.get(key);
        if (list) list.push(row);
        else lists.set(key, [row]);
      }
      return lists;
    })
    .catch((error: unknown) => {
      inMemory = null;
      throw error;
    });
  return inMemory;
}

export async function publicLists(db: Database): Promise<PublicList[]> {
  const lists = await listsInMemory(db);
  return [...lists.values()].map((rows) => ({
    language: rows[0]!.language,
    level: rows[0]!.level as Level,
    terms: rows.length,
  }));
}

export async function publicListTerms(db: Database, language: string, level: Level): Promise<PublicTerm[]> {
  return (await listsInMemory(db)).get(`${language}:${level}`) ?? [];
}

/**
 * Adds public terms to a learner's terms with their example, the meaning and translation in the learner's interface
 * language; a term the learner already has is left alone.
 */
export async function addPublicTerms(
  db: Database,
  owner: Owner,
  ids: string[],
  locale: Locale,
  now = new Date(),
): Promise<number> {
  if (ids.length === 0) return 0;
  const chosen = await db
    .select()
    .from(publicTerms)
    .where(and(inArray(publicTerms.id, ids), eq(publicTerms.language, owner.language)));
  let added = 0;
  await db.transaction(async (tx) => {
    for (const item of chosen) {
      const [term] = await tx
        .insert(terms)
        .values({
          ...owner,
          text: item.text,
          meaning: inLocale(item.meanings, locale),
          partOfSpeech: item.partOfSpeech,
          ...newCard(now),
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: terms.id });
      if (!term) continue;
      added++;
      await tx.insert(termExamples).values({
        termId: term.id,
        sentence: item.exampleSentence,
        translation: translationIn(item.exampleTranslations, locale, item.language),
      });
    }
  });
  return added;
}
