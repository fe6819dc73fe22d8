/** Interface locales. English is the default and is served without a URL prefix. */
export const LOCALES = ["en", "de", "es", "fr", "tr", "uk", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
/** Namespaces under locales/{lng}/. `common` holds everything the layout, errors and forms need. */
export const NAMESPACES = [
  "common",
  "pages",
  "landing",
  "account",
  "billing",
  "legal",
  "mail",
  "learning",
  "lists",
  "reading",
] as const;
export type Namespace = (typeof NAMESPACES)[number];
/**
 * Namespaces the browser loads; `legal` text reaches the page through loader data only, and `mail` is written by the
 * server alone. A page's document carries whole namespaces, so the public pages' own (`landing`, `lists`) stay apart
 * from the larger ones of the signed-in pages (`learning`).
 */
export const CLIENT_NAMESPACES: Namespace[] = NAMESPACES.filter((ns) => ns !== "legal" && ns !== "mail");
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Splits `/de/explore` into `de` and `/explore`; an unprefixed path is English. */
export function splitLocale(pathname: string): { locale: Locale; path: string } {
  // A trailing slash names the same page (`/company/privacy/` is `/company/privacy`).
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname || "/";
  const [, first = "", ...rest] = clean.split("/");
  if (first !== DEFAULT_LOCALE && isLocale(first)) {
    return { locale: first, path: "/" + rest.join("/") };
  }
  return { locale: DEFAULT_LOCALE, path: clean };
}

/** The URL of an unprefixed path in a locale: `localePath("de", "/explore")` is `/de/explore`. */
export function localePath(locale: Locale, path: string): string {
  const clean = path.startsWith("/") ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  return clean === "/" ? `/${locale}` : `/${locale}${clean}`;
}

/**
 * Each locale's name in its own language, as `Intl.DisplayNames` gives it, capitalised (tests/unit/i18n/locales.test.ts
 * checks the two agree). Written out rather than computed: each `Intl.DisplayNames` of another locale loads that
 * locale's data, and the seven of them, built while the header and the footer hydrate, were the longest task of the
 * landing page's load (about 200 ms of a phone's CPU).
 */
const AUTONYMS: Record<Locale, string> = {
  en: "English",
  de: "Deutsch",
  es: "Español",
  fr: "Français",
  tr: "Türkçe",
  uk: "Українська",
  zh: "中文",
};

/** The name of a locale in its own language, e.g. "Deutsch" for de. */
export function localeAutonym(locale: Locale): string {
  return AUTONYMS[locale];
}

function directionOf(locale: string): "ltr" | "rtl" {
  const textInfo = (
    new Intl.Locale(locale) as Intl.Locale & { getTextInfo?: () => { direction: string } }
  ).getTextInfo?.();
  return textInfo?.direction === "rtl" ? "rtl" : "ltr";
}

/** The interface locales' directions, found once: every document's `<html dir>` asks (an `Intl.Locale` per page). */
const DIRECTIONS = new Map(LOCALES.map((locale) => [locale as string, directionOf(locale)]));

export function localeDirection(locale: string): "ltr" | "rtl" {
  return DIRECTIONS.get(locale) ?? directionOf(locale);
}
