import { isbot } from "isbot";
import { memo } from "../util/memo";

/** User agents longer than this are checked each time, not remembered (a header can be many kilobytes). */
const REMEMBERED_LENGTH = 512;
const remembered = memo(256, isbot);

/**
 * Whether a user agent is a crawler or a script (isbot). Its pattern is a long regular expression run on every drawn
 * document; a site's visitors send the same few browsers' strings over and over, so the answer is remembered for them.
 */
export function isBot(userAgent: string | null): boolean {
  if (!userAgent) return false;
  return userAgent.length <= REMEMBERED_LENGTH ? remembered(userAgent) : isbot(userAgent);
}
