import { useLocation } from "react-router";
import { localePath, splitLocale, type Locale } from "./locales";

/** The locale of the page being shown, read from its URL so it is right during navigation too. */
export function useLocale(): Locale {
  return splitLocale(useLocation().pathname).locale;
}

/** Turns an unprefixed path into the current locale's URL. */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return (path) => localePath(locale, path);
}
