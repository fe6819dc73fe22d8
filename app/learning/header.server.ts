import type { RouterContextProvider } from "react-router";
import { userContext } from "../auth/session.server";
import { getDatabase } from "../db/db.server";
import { pageChangesAt } from "../edge/learner-pages.server";
import { studyLanguageContext } from "./preferences.server";
import { dayMemory, learnerDayOf } from "./daily.server";

/**
 * The header's review count for a signed-in learner: the number the review would show now (today's queue under the
 * daily limits, in the current study language); null for a visitor. A page kept in memory is drawn again when a card
 * falls due later today or the limits start again.
 */
export async function headerDueCount(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<number | null> {
  const user = context.get(userContext);
  if (!user) return null;
  const owner = { userId: user.id, language: context.get(studyLanguageContext) };
  const { day, queue } = await learnerDayOf(context, await getDatabase(), owner, dayMemory(request, user));
  pageChangesAt(context, queue.nextLaterToday);
  pageChangesAt(context, day.end);
  return queue.dueNow;
}
