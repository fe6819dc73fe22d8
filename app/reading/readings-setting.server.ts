import { eq } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { learnerSettings } from "../learning/learning.schema";
import { parsePlayerSettings } from "../player/settings";

/** Whether the learner sees readings (furigana, pinyin) over the words of Japanese and Chinese texts: yes by default. */
export async function readShowReadings(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ showReadings: learnerSettings.showReadings })
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, userId))
    .limit(1);
  return row?.showReadings ?? true;
}

export async function saveShowReadings(db: Database, userId: string, showReadings: boolean, now = new Date()) {
  await db
    .insert(learnerSettings)
    .values({ userId, showReadings, updatedAt: now })
    .onConflictDoUpdate({ target: learnerSettings.userId, set: { showReadings, updatedAt: now } });
}

/**
 * What the reader reads of the learner's settings, in one read: whether readings show, whether turning a page marks its
 * new words known, and the speed Listen reads at (the player's).
 */
export async function readReaderSettings(
  db: Database,
  userId: string,
): Promise<{ showReadings: boolean; knownOnPageTurn: boolean; listenRate: number }> {
  const [row] = await db
    .select({
      showReadings: learnerSettings.showReadings,
      knownOnPageTurn: learnerSettings.knownOnPageTurn,
      player: learnerSettings.player,
    })
    .from(learnerSettings)
    .where(eq(learnerSettings.userId, userId))
    .limit(1);
  return {
    showReadings: row?.showReadings ?? true,
    knownOnPageTurn: row?.knownOnPageTurn ?? false,
    listenRate: parsePlayerSettings(row?.player).rate,
  };
}
