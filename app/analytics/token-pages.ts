import { splitLocale } from "../i18n/locales";
import { PATHS } from "../http/paths";

const CONFIRM_NAME = new RegExp(PATHS.confirm.slice(1), "i");

/**
 * Pages whose address and form hold a usable sign-in token (the confirm page, in every locale): no third-party script
 * runs on them and they send no referrer, so the token never reaches an analytics provider or another site. Compared
 * decoded and without letter case, whatever the router makes of `/CONFIRM` or `/%63onfirm`.
 */
export function holdsSignInToken(pathname: string): boolean {
  // Without an escape or the page's name there is nothing to decode or compare (every answer asks, kept pages too).
  if (!pathname.includes("%") && !CONFIRM_NAME.test(pathname)) return false;
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Not a path the router matches either.
  }
  return splitLocale(decoded).path.toLowerCase() === PATHS.confirm;
}
