import { eq, isNull } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { learnerSettings } from "./learning.schema";
import { DEFAULT_REVIEW_MODES, isReviewMode, parseModes, REVIEW_MODES, type ReviewMode } from "./review-modes";
import { canonicalTimeZone } from "./time-zone";

export type LearnerSettings = {
  newPerDay: number;
  reviewsPerDay: number;
  /** Null until the learner or their browser names one (days are then counted in UTC). */
  timeZone: string | null;
  modes: ReviewMode[];
};

export const LIMITS = { newPerDay: { min: 0, max: 1000 }, reviewsPerDay: { min: 0, max: 10000 } } as const;
export const DEFAULT_SETTINGS: LearnerSettings = {
  newPerDay: 20,
  reviewsPerDay: 200,
  timeZone: null,
  modes: DEFAULT_REVIEW_MODES,
};

export async function readSettings(db: Database, userId: string): Promise<LearnerSettings> {
  const [row] = await db.select().from(learnerSettings).where(eq(learnerSettings.userId, userId)).limit(1);
  if (!row) return DEFAULT_SETTINGS;
  return {
    newPerDay: row.newPerDay,
    reviewsPerDay: row.reviewsPerDay,
    timeZone: row.timeZone,
    modes: parseModes(row.reviewModes),
  };
}

export async function saveSettings(db: Database, userId: string, settings: LearnerSettings, now = new Date()) {
  const values = {
    newPerDay: settings.newPerDay,
    reviewsPerDay: settings.reviewsPerDay,
    timeZone: settings.timeZone,
    reviewModes: settings.modes.join(","),
    updatedAt: now,
  };
  await db
    .insert(learnerSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: learnerSettings.userId, set: values });
}

/** Sets the zone only when none is saved yet: the browser's zone, sent once with JavaScript. */
export async function adoptTimeZone(db: Database, userId: string, timeZone: string): Promise<void> {
  await db
    .insert(learnerSettings)
    .values({ userId, timeZone })
    .onConflictDoUpdate({
      target: learnerSettings.userId,
      set: { timeZone },
      setWhere: isNull(learnerSettings.timeZone),
    });
}

/** Field errors as translation keys in the `learning` namespace. */
export type SettingsErrors = Partial<Record<"newPerDay" | "reviewsPerDay" | "timeZone" | "modes", string>>;

function wholeNumber(value: FormDataEntryValue | null, { min, max }: { min: number; max: number }): number | null {
  const text = String(value ?? "").trim();
  if (!/^\d{1,6}$/.test(text)) return null;
  const number = Number(text);
  return number >= min && number <= max ? number : null;
}

/** The settings form, checked on the server. */
export function parseSettingsForm(
  form: FormData,
): { value: LearnerSettings; errors: null } | { value: null; errors: SettingsErrors } {
  const errors: SettingsErrors = {};
  const newPerDay = wholeNumber(form.get("newPerDay"), LIMITS.newPerDay);
  const reviewsPerDay = wholeNumber(form.get("reviewsPerDay"), LIMITS.reviewsPerDay);
  const timeZone = canonicalTimeZone(String(form.get("timeZone") ?? "").trim());
  const modes = form.getAll("modes");
  if (newPerDay === null) errors.newPerDay = "settings.errors.newPerDay";
  if (reviewsPerDay === null) errors.reviewsPerDay = "settings.errors.reviewsPerDay";
  if (!timeZone) errors.timeZone = "settings.errors.timeZone";
  if (modes.length === 0 || !modes.every(isReviewMode)) errors.modes = "settings.errors.modes";
  if (Object.keys(errors).length > 0) return { value: null, errors };
  return {
    value: {
      newPerDay: newPerDay!,
      reviewsPerDay: reviewsPerDay!,
      timeZone: timeZone!,
      modes: REVIEW_MODES.filter((mode) => modes.includes(mode)),
    },
    errors: null,
  };
}

/** The learner's dictionary template for one study language, or null for the default. */
export async function readDictionary(db: Database, userId: string, language: string): Promise<string | null> {
  const [row] = await db
    .select({ dictionaries: learnerSettings.dictionaries })
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, userId))
    .limit(1);
  return row?.dictionaries[language] ?? null;
}

/** Saves (or, with null, forgets) the learner's dictionary template for one study language. */
export async function saveDictionary(db: Database, userId: string, language: string, template: string | null) {
  const [row] = await db
    .select({ dictionaries: learnerSettings.dictionaries })
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, userId))
    .limit(1);
  const dictionaries = { ...row?.dictionaries };
  if (template) dictionaries[language] = template;
  else delete dictionaries[language];
  await db
    .insert(learnerSettings)
    .values({ userId, dictionaries })
    .onConflictDoUpdate({ target: learnerSettings.userId, set: { dictionaries, updatedAt: new Date() } });
}
