import { DEFAULT_LOCALE, LOCALES, localePath, type Locale } from "../i18n/locales";

export const PRODUCT_NAME = "Polyglot";

/** Query parameters that change what a page shows; every other parameter is dropped from canonical URLs. */
export const CANONICAL_QUERY_WHITELIST = ["language", "level", "page", "pos", "q", "sort", "stage"];

/** `{page title} - POLYGLOT`; the bare product name when there is no page title. */
export function pageTitle(title?: string | null): string {
  return title ? `${title} - ${PRODUCT_NAME.toUpperCase()}` : PRODUCT_NAME;
}

/** `/account/player/player-soon` becomes `Player Soon`. */
export function titleFromPath(path: string): string | null {
  const segment = path.split("/").filter(Boolean).at(-1);
  if (!segment) return null;
  return decodeURIComponent(segment)
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(" ");
}

export function canonicalUrl(origin: string, locale: Locale, path: string, search: string): string {
  const params = new URLSearchParams(search);
  const kept = [...params.entries()]
    .filter(([name]) => CANONICAL_QUERY_WHITELIST.includes(name))
    .sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(kept).toString();
  return origin + localePath(locale, path.toLowerCase()) + (query ? `?${query}` : "");
}

export function alternateLinks(origin: string, mixedCasePath: string): { hrefLang: string; href: string }[] {
  const path = mixedCasePath.toLowerCase();
  return [
    ...LOCALES.map((locale) => ({ hrefLang: locale, href: origin + localePath(locale, path) })),
    { hrefLang: "x-default", href: origin + localePath(DEFAULT_LOCALE, path) },
  ];
}

/** The address without `utm_*` parameters, or null when there are none. */
export function withoutTrackingParams(search: string): string | null {
  const params = new URLSearchParams(search);
  const names = [...params.keys()].filter((name) => name.toLowerCase().startsWith("utm_"));
  if (names.length === 0) return null;
  for (const name of names) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
