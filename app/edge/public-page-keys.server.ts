import type { IncomingMessage } from "node:http";
import { SESSION_COOKIE } from "../auth/session.server";
import { SIGN_IN_SENT_COOKIE } from "../auth/sign-in-sent.server";
import { rootRedirectLocale } from "../i18n/root-redirect.server";
import { LOCALES, localePath } from "../i18n/locales";
import { isLevel, isStudyLanguage } from "../learning/vocabulary";
import { PATHS } from "../http/paths";
import { PUBLIC_PAGES } from "../http/public-pages";
import { STORED_COPY_HEADER } from "../toasts/toast";
import { TOAST_COOKIE } from "../toasts/toast.server";
import { canonicalVariantCookies } from "./variant-cookies.server";
import { memo } from "../util/memo";

/**
 * The key of a public page kept in memory: its path, whitelisted query parameters and the cookies and headers that may
 * change an anonymous page (app/edge/page-cache.server.ts); null for a request that must be rendered for the visitor.
 */

/** Request headers that change a page, with the values that matter (others count as absent). */
export const VARIANT_HEADERS: Record<string, (value: string) => string | null> = {
  "save-data": (value) => (value.trim().toLowerCase() === "on" ? "on" : null),
  // The offline review's stored copy of a page carries its stylesheet and translations inside (entry.server.tsx).
  [STORED_COPY_HEADER.toLowerCase()]: (value) => (value === "1" ? "1" : null),
};
/** Cookies that make a page personal: their holders always get a fresh render. */
const BYPASS_COOKIES = [SESSION_COOKIE, TOAST_COOKIE, SIGN_IN_SENT_COOKIE];
/** Query parameters a page reads, with the values it accepts; any other query is rendered without the cache. */
const QUERY_WHITELIST: Record<string, Record<string, (value: string) => boolean>> = {
  [PATHS.explore]: { language: isStudyLanguage, level: isLevel },
};

/** Each locale's path of a public page (with and without a trailing slash), to the page. */
const pageKeys = new Map<string, string>(
  PUBLIC_PAGES.flatMap((page) =>
    LOCALES.flatMap((locale) =>
      [localePath(locale, page), `${localePath(locale, page)}/`].map((path) => [path, page] as const),
    ),
  ),
);
pageKeys.delete("//");

export function cookieValues(header: string | undefined): Map<string, string> {
  const values = new Map<string, string>();
  if (!header) return values;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0) values.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return values;
}

export type Lookup = { key: string; url: string; cookie: string; headers: [string, string][]; page: string };

/** `?language=es&level=beginner` in a fixed order, or null when the query holds anything the page does not accept. */
const normalisedQuery = (page: string, search: string) => queryMemo(`${page}?${search}`);
const queryMemo = memo(1_000, (pageAndSearch) => {
  const at = pageAndSearch.indexOf("?");
  const allowed = QUERY_WHITELIST[pageAndSearch.slice(0, at)];
  if (!allowed) return null;
  const params = new URLSearchParams(pageAndSearch.slice(at + 1));
  const names = [...params.keys()];
  if (new Set(names).size !== names.length) return null;
  for (const [name, value] of params) if (!allowed[name]?.(value)) return null;
  params.sort();
  return `?${params}`;
});

/** Where the bare root sends a visitor (null: nowhere), remembered per distinct cookie, language and browser. */
const rootRedirectMemo = new Map<string, Promise<string | null>>();
/** The same decisions once made, for the synchronous fast path (`answerFromMemory`). */
export const rootRedirectKnown = new Map<string, string | null>();
export const rootRedirectKey = (req: IncomingMessage) =>
  `${req.headers.cookie ?? null}\n${req.headers["accept-language"] ?? null}\n${req.headers["user-agent"] ?? null}`;
export function rootRedirectFor(req: IncomingMessage): Promise<string | null> {
  const key = rootRedirectKey(req);
  let target = rootRedirectMemo.get(key);
  if (!target) {
    target = rootRedirectLocale({
      cookie: req.headers.cookie ?? null,
      acceptLanguage: req.headers["accept-language"] ?? null,
      userAgent: req.headers["user-agent"] ?? null,
    });
    if (rootRedirectMemo.size >= 1_000) {
      const oldest = rootRedirectMemo.keys().next().value!;
      rootRedirectMemo.delete(oldest);
      rootRedirectKnown.delete(oldest);
    }
    rootRedirectMemo.set(key, target);
    void target.then((locale) => {
      if (rootRedirectMemo.get(key) === target) rootRedirectKnown.set(key, locale);
    });
  }
  return target;
}

/** The cache key of a request, or null when this request must be rendered for the visitor. */
export function lookup(req: IncomingMessage): Lookup | null {
  const raw = req.url ?? "/";
  const queryAt = raw.indexOf("?");
  const path = queryAt < 0 ? raw : raw.slice(0, queryAt);
  const page = pageKeys.get(path);
  if (!page) return null;
  const cookies = cookieValues(req.headers.cookie);
  if (BYPASS_COOKIES.some((name) => cookies.has(name))) return null;
  const query = queryAt >= 0 && queryAt < raw.length - 1 ? normalisedQuery(page, raw.slice(queryAt + 1)) : "";
  if (query === null) return null;
  // Cookies that change an anonymous page, each only with a value the app writes: junk counts as absent.
  const cookie = canonicalVariantCookies(cookies);
  if (cookie === null) return null;
  const headers: [string, string][] = [];
  for (const [name, normalise] of Object.entries(VARIANT_HEADERS)) {
    const value = req.headers[name];
    const normalised = typeof value === "string" ? normalise(value) : null;
    if (normalised) headers.push([name, normalised]);
  }
  const canonicalPath = path.length > 1 ? path.replace(/\/$/, "") : path;
  return {
    key: `${canonicalPath}${query}\n${cookie}\n${headers.join(";")}`,
    url: canonicalPath + query,
    cookie,
    headers,
    page,
  };
}
