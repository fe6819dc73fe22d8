import type { Route } from "./+types/($lang).account.player_.cards";
import { getDatabase } from "../db/db.server";
import { dayMemory, learnerDayOf } from "../learning/daily.server";
import { requireLearner } from "../learning/learner.server";
import { playerCursor, playerDeck } from "../player/player.server";

/**
 * The player's next batch of cards (`?after=` the cursor of the batch before), as JSON: the player asks for it while it
 * reads the last cards it has. Never stored by a cache on the way.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const after = playerCursor(request);
  const db = await getDatabase();
  const deck = await playerDeck(db, owner, await learnerDayOf(context, db, owner, dayMemory(request, user)), after);
  return Response.json(deck, { headers: { "Cache-Control": "private, no-store" } });
}
