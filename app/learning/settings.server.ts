import { eq, isNull, sql } from "drizzle-orm";
import { preparedPerDatabase } from "../db/built-once";
import type { Database } from "../db/db.server";
import { learnerSettings } from "./learning.schema";
import { DEFAULT_REVIEW_MODES, isReviewMode, parseModes, REVIEW_MODES, type ReviewMode } from "./review-modes";
import { currentZoneName } from "./renamed-zones";
import { canonicalTimeZone } from "./time-zone";
import { LIMITS } from "./daily-limits";
import { RETENTION, RETENTION_CHOICES } from "./retention";
import { z } from "zod";
import { list, trimmed } from "../http/intents.server";

export type LearnerSettings = {
  newPerDay: number;
  reviewsPerDay: number;
  /** Null until the learner or their browser names one (days are then counted in UTC). */
  timeZone: string | null;
  modes: ReviewMode[];
  /** The recall probability the scheduler aims for when a term comes due (ADR 062). */
  desiredRetention: number;
  /** Play a term's sound when the review shows its answer (ADR 126). */
  autoplaySounds?: boolean;
};

export const DEFAULT_SETTINGS: LearnerSettings = {
  newPerDay: 20,
  reviewsPerDay: 200,
  timeZone: null,
  modes: DEFAULT_REVIEW_MODES,
  desiredRetention: RETENTION.default,
  autoplaySounds: false,
};

/** The settings read, with the learner's day on every page that shows it: built once per database. */
const settingsRead = preparedPerDatabase((db) =>
  db
    .select()
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, sql.placeholder("userId")))
    .limit(1)
    .prepare("settings_read"),
);

export async function readSettings(db: Database, userId: string): Promise<LearnerSettings> {
  const [row] = await settingsRead(db).execute({ userId });
  return settingsOf(row);
}

/** The columns of a learner's settings row the settings are made of (none: the learner kept the defaults). */
export type SettingsRow = Pick<
  typeof learnerSettings.$inferSelect,
  "newPerDay" | "reviewsPerDay" | "timeZone" | "reviewModes" | "desiredRetention"
> &
  Partial<Pick<typeof learnerSettings.$inferSelect, "autoplaySounds">>;

/** The settings a row holds, as `readSettings` gives them; no row is the defaults. */
export function settingsOf(row: SettingsRow | undefined): LearnerSettings {
  if (!row) return DEFAULT_SETTINGS;
  return {
    newPerDay: row.newPerDay,
    reviewsPerDay: row.reviewsPerDay,
    // A zone saved under a name IANA has since changed reads as the current one ("Europe/Kiev" → "Europe/Kyiv").
    timeZone: row.timeZone === null ? null : currentZoneName(row.timeZone),
    modes: parseModes(row.reviewModes),
    desiredRetention: row.desiredRetention,
    autoplaySounds: row.autoplaySounds ?? false,
  };
}

/** Turns playing sounds on the review's answer side on or off (a form of its own on the settings page). */
export async function saveAutoplaySounds(db: Database, userId: string, on: boolean, now = new Date()) {
  await db
    .insert(learnerSettings)
    .values({ userId, autoplaySounds: on, updatedAt: now })
    .onConflictDoUpdate({ target: learnerSettings.userId, set: { autoplaySounds: on, updatedAt: now } });
}

export async function saveSettings(db: Database, userId: string, settings: LearnerSettings, now = new Date()) {
  const values = {
    newPerDay: settings.newPerDay,
    reviewsPerDay: settings.reviewsPerDay,
    timeZone: settings.timeZone,
    reviewModes: settings.modes.join(","),
    desiredRetention: settings.desiredRetention,
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
export type SettingsErrors = Partial<
  Record<"newPerDay" | "reviewsPerDay" | "timeZone" | "modes" | "desiredRetention", string>
>;

/** A whole number within limits, written with at most six digits. */
const wholeNumber = ({ min, max }: { min: number; max: number }, message: string) =>
  trimmed().pipe(
    z
      .string()
      .regex(/^\d{1,6}$/, message)
      .transform(Number)
      .pipe(z.number().min(min, message).max(max, message)),
  );

/** The settings form, checked on the server (messages are keys of the `learning` namespace). */
export const settingsSchema = z
  .object({
    newPerDay: wholeNumber(LIMITS.newPerDay, "settings.errors.newPerDay"),
    reviewsPerDay: wholeNumber(LIMITS.reviewsPerDay, "settings.errors.reviewsPerDay"),
    timeZone: trimmed().pipe(
      z.string().transform((value, context) => {
        const zone = canonicalTimeZone(value);
        if (!zone) context.addIssue({ code: "custom", message: "settings.errors.timeZone" });
        return zone ?? "";
      }),
    ),
    modes: list().pipe(
      z
        .array(z.string())
        .refine((modes) => modes.length > 0 && modes.every(isReviewMode), "settings.errors.modes")
        .transform((modes) => REVIEW_MODES.filter((mode) => (modes as string[]).includes(mode))),
    ),
    // One of the choices the form offers: a hundredth from 0.80 to 0.97 ("0.9" is 0.90); none sent (a form from before
    // the setting) keeps the default.
    desiredRetention: trimmed().pipe(
      z.string().transform((value, context) => {
        if (value === "") return RETENTION.default;
        const number = /^\d(\.\d+)?$/.test(value) ? Number(value) : NaN;
        const choice = number.toFixed(2);
        if (!RETENTION_CHOICES.includes(choice) || Math.abs(Number(choice) - number) > 1e-9) {
          context.addIssue({ code: "custom", message: "settings.errors.desiredRetention" });
          return RETENTION.default;
        }
        return Number(choice);
      }),
    ),
  })
  .transform((value): LearnerSettings => value);

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
