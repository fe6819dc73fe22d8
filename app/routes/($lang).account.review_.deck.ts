import type { Route } from "./+types/($lang).account.review_.deck";
import { getDatabase } from "../db/db.server";
import { requestLocale } from "../i18n/i18n.server";
import { requireLearner } from "../learning/learner.server";
import { offlineDeck } from "../learning/offline-review.server";

/**
 * Today's cards for the offline review (ADR 065), as JSON: the learner's device fetches them whenever it is online and
 * the app opens, and keeps them in IndexedDB. Never stored by a cache on the way.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { owner } = requireLearner(context);
  const deck = await offlineDeck(await getDatabase(), owner, requestLocale(context));
  return Response.json(deck, { headers: { "Cache-Control": "private, no-store" } });
}
