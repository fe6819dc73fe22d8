import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/db.server";
import { flag, text } from "../http/intents.server";
import { learnerSettings } from "../learning/learning.schema";
import { GRADE_NAMES, PAUSES, parsePlayerSettings, RATES, type PlayerSettings } from "./settings";

/** The learner's player settings (ADR 141); the defaults until they choose. */
export async function readPlayerSettings(db: Database, userId: string): Promise<PlayerSettings> {
  const [row] = await db
    .select({ player: learnerSettings.player })
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, userId))
    .limit(1);
  return parsePlayerSettings(row?.player);
}

export async function savePlayerSettings(db: Database, userId: string, settings: PlayerSettings, now = new Date()) {
  const player = { ...settings };
  await db
    .insert(learnerSettings)
    .values({ userId, player, updatedAt: now })
    .onConflictDoUpdate({ target: learnerSettings.userId, set: { player, updatedAt: now } });
}

/** One of the offered numbers, as the form writes it ("1.25"); anything else is refused. */
const choice = (values: readonly number[]) =>
  text().pipe(
    z
      .string()
      .refine((value) => values.some((offered) => String(offered) === value))
      .transform(Number),
  );

/** The player's settings form (Settings, or the player's own controls); any value not offered is refused. */
export const playerSettingsSchema = z.object({
  pause: choice(PAUSES),
  rate: choice(RATES),
  goOn: flag(),
  nextGrade: text().pipe(z.enum(GRADE_NAMES as [string, ...string[]])),
}) as z.ZodType<PlayerSettings>;
