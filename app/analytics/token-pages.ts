import { splitLocale } from "../i18n/locales";
import { PATHS } from "../http/paths";

/**
 * Pages whose address and form hold a usable sign-in token (the confirm page, in every locale): no third-party script
 * runs on them and they send no referrer, so the token never reaches an analytics provider or another site. Compared
 * decoded and without letter case, whatever the router makes of `/CONFIRM` or `/%63onfirm`.
 */
export function holdsSignInToken(pathname: string): boolean {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // Not a path the router matches either.
  }
  return splitLocale(decoded).path.toLowerCase() === PATHS.confirm;
}
