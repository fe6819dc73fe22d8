/** Interface locales. English is the default and is served without a URL prefix. */
export const LOCALES = ["en", "de", "es", "fr", "tr", "uk", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
/** Namespaces under locales/{lng}/. `common` holds everything the layout, errors and forms need. */
export const NAMESPACES = ["common", "pages", "legal", "learning", "reading"] as const;
export type Namespace = (typeof NAMESPACES)[number];
/** Namespaces the browser loads; `legal` text reaches the page through loader data only. */
export const CLIENT_NAMESPACES: Namespace[] = ["common", "pages", "learning", "reading"];
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

const autonyms = new Map<Locale, string>();

/** The name of a locale in its own language, e.g. "Deutsch" for de (computed once). */
export function localeAutonym(locale: Locale): string {
  let autonym = autonyms.get(locale);
  if (!autonym) {
    const name = new Intl.DisplayNames([locale], { type: "language" }).of(locale) ?? locale;
    autonym = name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
    autonyms.set(locale, autonym);
  }
  return autonym;
}

export function localeDirection(locale: string): "ltr" | "rtl" {
  const textInfo = (
    new Intl.Locale(locale) as Intl.Locale & { getTextInfo?: () => { direction: string } }
  ).getTextInfo?.();
  return textInfo?.direction === "rtl" ? "rtl" : "ltr";
}
