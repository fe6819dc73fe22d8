import type { RouterContextProvider } from "react-router";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { studyLanguageContext } from "./preferences.server";
import { dayMemory, learnerDayOf } from "./daily.server";

/**
 * The header's review count for a signed-in learner: the number the review would show now (today's queue under the
 * daily limits, in the current study language), and when it changes by itself (a card falls due later today, the
 * limits start again); null and no moment for a visitor.
 */
export async function headerDueCount(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<{ dueNow: number | null; changesAt: Date[] }> {
  const user = context.get(userContext);
  if (!user) return { dueNow: null, changesAt: [] };
  const owner = { userId: user.id, language: context.get(studyLanguageContext) };
  const { day, queue } = await learnerDayOf(context, await getDatabase(), owner, dayMemory(request, user));
  return { dueNow: queue.dueNow, changesAt: queue.nextLaterToday ? [queue.nextLaterToday, day.end] : [day.end] };
}
