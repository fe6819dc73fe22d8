import { and, eq, isNull, max, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "../db/db.server";
import { users } from "../auth/auth.schema";
import { texts } from "../reading/reading.schema";
import { saveDailyGoal } from "./settings.server";

/**
 * The languages most learners study (the large course platforms' yearly reports), offered first in the welcome's list;
 * every other study language follows. No guess from the interface or browser language: those are the learner's own
 * languages, rarely the one they study.
 */
export const POPULAR_STUDY_LANGUAGES = [
  "es",
  "fr",
  "de",
  "it",
  "pt",
  "ja",
  "zh",
  "ko",
  "ru",
  "ar",
  "tr",
  "uk",
  "nl",
  "pl",
  "sv",
  "el",
  "he",
  "hi",
  "vi",
  "id",
  "en",
] as const;

/** The welcome's questions, one a screen, in order (`?step=`). */
export const WELCOME_STEPS = ["language", "level", "goal"] as const;
export type WelcomeStep = (typeof WELCOME_STEPS)[number];

export const welcomeStepOf = (value: string | null): WelcomeStep =>
  (WELCOME_STEPS as readonly string[]).includes(value ?? "") ? (value as WelcomeStep) : "language";

/** A search of the welcome's languages, bounded: at most 60 characters are read. */
export const languageQuery = (value: string | null): string => (value ?? "").trim().slice(0, 60);

/**
 * The welcome's language choices: the most studied first, then every other study language by name; with a query, only
 * those whose name (in the interface language or their own) or code contains it.
 */
export function welcomeLanguages(
  options: { code: string; name: string }[],
  query: string,
  locale: string,
): { popular: { code: string; name: string }[]; others: { code: string; name: string }[] } {
  const popularCodes = POPULAR_STUDY_LANGUAGES as readonly string[];
  const byCode = new Map(options.map((option) => [option.code, option]));
  let popular = POPULAR_STUDY_LANGUAGES.flatMap((code) => byCode.get(code) ?? []);
  let others = options.filter((option) => !popularCodes.includes(option.code));
  if (query) {
    const folded = fold(query, locale);
    const matches = (option: { code: string; name: string }) =>
      option.code === folded ||
      fold(option.name, locale).includes(folded) ||
      fold(ownName(option.code), locale).includes(folded);
    popular = popular.filter(matches);
    others = others.filter(matches);
  }
  return { popular, others };
}

const fold = (value: string, locale: string) => value.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase(locale);

/** A language's name in itself ("Deutsch", "日本語"), for searching; the code when the runtime has none. */
function ownName(code: string): string {
  try {
    return new Intl.DisplayNames([code], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Skipping keeps every default (the study language of the moment, no level, the default daily goal). */
export async function skipWelcome(db: Database, userId: string, now = new Date()) {
  await db
    .update(users)
    .set({ welcomedAt: now })
    .where(and(eq(users.id, userId), isNull(users.welcomedAt)));
}

/** The last answer: the daily goal, and the welcome is done. */
export async function finishWelcome(db: Database, userId: string, goalMinutes: number, now = new Date()) {
  // The learner's row last: should the first write fail, the welcome is still there to answer.
  await saveDailyGoal(db, userId, goalMinutes, now);
  await db.update(users).set({ welcomedAt: now }).where(eq(users.id, userId));
}

/**
 * Notes that the learner opened one of their texts in the reader, for My home's "continue reading". Writes only when
 * the text is not already the last one opened in its language, so paging through a text or opening its words costs
 * no write.
 */
export async function markTextOpened(db: Database, userId: string, textId: string, now = new Date()) {
  const last = alias(texts, "last");
  const latest = db
    .select({ at: max(last.openedAt) })
    .from(last)
    .where(and(eq(last.userId, userId), eq(last.language, texts.language)));
  await db
    .update(texts)
    .set({ openedAt: now })
    .where(
      and(
        eq(texts.id, textId),
        eq(texts.userId, userId),
        sql`(${texts.openedAt} is null or ${texts.openedAt} < (${latest}))`,
      ),
    );
}
