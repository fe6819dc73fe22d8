import { and, asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { invalidatePublicPages, onPublicDataChange } from "../http/page-cache.server";
import { publicTerms, termExamples, terms } from "./learning.schema";
import { newCard } from "./stage";
import type { Owner } from "./terms.server";
import { isLevel, isPartOfSpeech, type Level } from "./vocabulary";

type ListFile = {
  language: string;
  level: string;
  terms: { text: string; meaning: string; partOfSpeech: string; example: { sentence: string; translation?: string } }[];
};

const files = import.meta.glob<{ default: ListFile }>("./public-lists/*.json", { eager: true });

/** The curated lists shipped in the repository, checked when the server starts. */
export function shippedLists(): ListFile[] {
  return Object.values(files).map((module) => {
    const list = module.default;
    if (!isLevel(list.level)) throw new Error(`public list ${list.language}-${list.level}: unknown level`);
    for (const term of list.terms) {
      if (!isPartOfSpeech(term.partOfSpeech))
        throw new Error(
          `public list ${list.language}-${list.level}: ${term.text} has part of speech ${term.partOfSpeech}`,
        );
    }
    return list;
  });
}

/** Loads the shipped lists into the database; already loaded terms are left as they are, so every start may run it. */
export async function loadPublicLists(db: Database): Promise<void> {
  const rows = shippedLists().flatMap((list) =>
    list.terms.map((term, position) => ({
      language: list.language,
      level: list.level,
      text: term.text,
      meaning: term.meaning,
      partOfSpeech: term.partOfSpeech,
      exampleSentence: term.example.sentence,
      exampleTranslation: term.example.translation ?? "",
      position,
    })),
  );
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insert(publicTerms)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing();
  }
  // Pages rendered before the lists were loaded show stale lists.
  invalidatePublicPages();
}

export type PublicList = { language: string; level: Level; terms: number };
type PublicTerm = typeof publicTerms.$inferSelect;

// Shipped data: read from the database once per process (the terms carry their ids), not on every request.
let inMemory: Promise<Map<string, PublicTerm[]>> | null = null;
onPublicDataChange(() => (inMemory = null));

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

/** Adds public terms to a learner's terms with their example; a term the learner already has is left alone. */
export async function addPublicTerms(db: Database, owner: Owner, ids: string[], now = new Date()): Promise<number> {
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
          meaning: item.meaning,
          partOfSpeech: item.partOfSpeech,
          ...newCard(now),
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: terms.id });
      if (!term) continue;
      added++;
      await tx
        .insert(termExamples)
        .values({ termId: term.id, sentence: item.exampleSentence, translation: item.exampleTranslation });
    }
  });
  return added;
}
