import { and, desc, eq, isNotNull, isNull, max, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import type { Database } from "../db/db.server";
import { users } from "../auth/auth.schema";
import { texts } from "../reading/reading.schema";
import { publicLists } from "./public-lists.server";
import { LIMITS } from "./daily-limits";
import { readSettings, saveSettings } from "./settings.server";
import type { Owner } from "./terms.server";
import { isStudyLanguage, LEVELS, type Level } from "./vocabulary";

/**
 * The languages most learners study (in the order of the large course platforms' yearly reports), offered first in
 * the welcome's list; every other study language follows. No guess from the interface or browser language: those
 * are the learner's own languages, rarely the one they study.
 */
export const POPULAR_STUDY_LANGUAGES = ["en", "es", "fr", "de", "ja", "it", "ko", "zh", "pt", "ru"] as const;

/** What the welcome asks, as the form sent it (kept to fill the form again after an error). */
export type WelcomeValues = { studyLanguage: string; level: string; newPerDay: string };
/** Field errors as translation keys in the `learning` namespace. */
export type WelcomeErrors = Partial<Record<keyof WelcomeValues, string>>;
export type WelcomeAnswer = { studyLanguage: string; level: Level; newPerDay: number };

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

const welcomeSchema = z.object({
  studyLanguage: z.string().refine(isStudyLanguage, { message: "errors.invalidLanguage" }),
  level: z.enum(LEVELS, { message: "errors.invalidLevel" }),
  newPerDay: z
    .string()
    .regex(/^\d{1,6}$/, { message: "settings.errors.newPerDay" })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(LIMITS.newPerDay.min, { message: "settings.errors.newPerDay" })
        .max(LIMITS.newPerDay.max, { message: "settings.errors.newPerDay" }),
    ),
});

/** The welcome form, checked on the server: the answer, or the fields' errors with what was sent. */
export function parseWelcomeForm(
  form: FormData,
):
  | { value: WelcomeAnswer; errors: null; values: WelcomeValues }
  | { value: null; errors: WelcomeErrors; values: WelcomeValues } {
  const values: WelcomeValues = {
    studyLanguage: field(form, "studyLanguage"),
    level: field(form, "level"),
    newPerDay: field(form, "newPerDay"),
  };
  const parsed = welcomeSchema.safeParse(values);
  if (parsed.success) return { value: parsed.data, errors: null, values };
  const errors: WelcomeErrors = {};
  for (const issue of parsed.error.issues) {
    const name = issue.path[0] as keyof WelcomeValues;
    errors[name] ??= issue.message;
  }
  return { value: null, errors, values };
}

/** Saves the welcome's answers (language and level on the learner's row, the daily limit in the settings). */
export async function answerWelcome(db: Database, userId: string, answer: WelcomeAnswer, now = new Date()) {
  // The learner's row last: should the first write fail, the welcome is still there to answer.
  const settings = await readSettings(db, userId);
  await saveSettings(db, userId, { ...settings, newPerDay: answer.newPerDay }, now);
  await db
    .update(users)
    .set({ studyLanguage: answer.studyLanguage, level: answer.level, welcomedAt: now })
    .where(eq(users.id, userId));
}

/** Skipping keeps every default (the study language of the moment, no level, the default daily limit). */
export async function skipWelcome(db: Database, userId: string, now = new Date()) {
  await db
    .update(users)
    .set({ welcomedAt: now })
    .where(and(eq(users.id, userId), isNull(users.welcomedAt)));
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

/** The one thing My home offers first. */
export type NextAction =
  | { kind: "review"; count: number }
  | { kind: "read"; id: string; title: string }
  | { kind: "list"; language: string; level: Level }
  | { kind: "add" };

/**
 * Review what is due; else continue the text last opened in this language; else add words from the public list at
 * the learner's level (Beginner when none is chosen); else, in a language without lists, add a term.
 */
export async function nextAction(
  db: Database,
  owner: Owner,
  level: string | null,
  dueNow: number,
): Promise<NextAction> {
  if (dueNow > 0) return { kind: "review", count: dueNow };
  const [last] = await db
    .select({ id: texts.id, title: texts.title })
    .from(texts)
    .where(and(eq(texts.userId, owner.userId), eq(texts.language, owner.language), isNotNull(texts.openedAt)))
    .orderBy(desc(texts.openedAt))
    .limit(1);
  if (last) return { kind: "read", id: last.id, title: last.title };
  const lists = (await publicLists(db)).filter((list) => list.language === owner.language);
  const wanted = (LEVELS as readonly string[]).includes(level ?? "") ? (level as Level) : "beginner";
  const list = lists.find((candidate) => candidate.level === wanted) ?? lists[0];
  return list ? { kind: "list", language: list.language, level: list.level } : { kind: "add" };
}
