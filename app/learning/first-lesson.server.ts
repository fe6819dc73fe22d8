import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { texts } from "../reading/reading.schema";
import type { Owner } from "./terms.server";
import { copyOf } from "../reading/samples-page.server";
import { sampleTexts, type SampleText } from "../reading/samples.server";
import { createText } from "../reading/texts.server";
import { roomForTexts } from "./limits.server";
import { publicLists } from "./public-lists.server";
import { LEVELS, type Level } from "./vocabulary";
import { markTextOpened } from "./welcome.server";

/** Levels from the wanted one outwards: the wanted, then one below, one above, two below… (no level: beginner). */
function byNearness(level: string | null): Level[] {
  const wanted = Math.max(0, LEVELS.indexOf(level as Level));
  return [...LEVELS].sort(
    (a, b) =>
      Math.abs(LEVELS.indexOf(a) - wanted) - Math.abs(LEVELS.indexOf(b) - wanted) ||
      LEVELS.indexOf(a) - LEVELS.indexOf(b),
  );
}

/** The shipped text of the learner's language at their level, else at the nearest level that has one. */
export function nearestSample(language: string, level: string | null): SampleText | null {
  const ofLanguage = sampleTexts().filter((sample) => sample.language === language);
  for (const candidate of byNearness(level)) {
    const found = ofLanguage.find((sample) => sample.level === candidate);
    if (found) return found;
  }
  return null;
}

/** The starter list: the public list of the language at the learner's level, else at the nearest level. */
export async function starterList(
  db: Database,
  language: string,
  level: string | null,
): Promise<{ language: string; level: Level; terms: number } | null> {
  const lists = (await publicLists(db)).filter((list) => list.language === language);
  for (const candidate of byNearness(level)) {
    const found = lists.find((list) => list.level === candidate);
    if (found) return found;
  }
  return null;
}

export type FirstLesson =
  { kind: "text"; id: string; title: string } | { kind: "list"; language: string; level: Level } | { kind: "lists" };

/**
 * Where the welcome leads: the learner's copy of the text of their level in their language (made once, and opened, so
 * My home offers to continue it); without a text in that language, its starter list; without one, the public lists.
 */
export async function startFirstLesson(
  db: Database,
  userId: string,
  language: string,
  level: string | null,
): Promise<FirstLesson> {
  const sample = nearestSample(language, level);
  if (sample) {
    const existing = await copyOf(db, userId, sample);
    const id =
      existing ??
      ((await roomForTexts(db, userId))
        ? (await createText(db, { userId, language }, { title: sample.title, body: sample.body })).id
        : null);
    if (id) {
      await markTextOpened(db, userId, id);
      return { kind: "text", id, title: sample.title };
    }
  }
  const list = await starterList(db, language, level);
  return list ? { kind: "list", language: list.language, level: list.level } : { kind: "lists" };
}

type ListRef = { language: string; level: Level };

/** The one thing My home offers first, with the starter list beside a text. */
export type NextAction =
  | { kind: "review"; count: number }
  | { kind: "read"; id: string; title: string; list: ListRef | null }
  | { kind: "lesson"; slug: string; title: string; list: ListRef | null }
  | { kind: "list"; language: string; level: Level }
  | { kind: "add" };

/**
 * Review what is due; else continue the text last opened in this language; else the first lesson (the shipped text
 * nearest the learner's level); else the starter list; else, in a language with neither, add a term.
 */
export async function nextAction(
  db: Database,
  owner: Owner,
  level: string | null,
  dueNow: number,
): Promise<NextAction> {
  if (dueNow > 0) return { kind: "review", count: dueNow };
  const [[last], found] = await Promise.all([
    db
      .select({ id: texts.id, title: texts.title })
      .from(texts)
      .where(and(eq(texts.userId, owner.userId), eq(texts.language, owner.language), isNotNull(texts.openedAt)))
      .orderBy(desc(texts.openedAt))
      .limit(1),
    starterList(db, owner.language, level),
  ]);
  const list = found && { language: found.language, level: found.level };
  if (last) return { kind: "read", id: last.id, title: last.title, list };
  const sample = nearestSample(owner.language, level);
  if (sample) return { kind: "lesson", slug: sample.slug, title: sample.title, list };
  return list ? { kind: "list", ...list } : { kind: "add" };
}
