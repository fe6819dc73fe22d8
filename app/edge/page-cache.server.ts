import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { createRequestHandler, type ServerBuild } from "react-router";
import { env } from "../config/env.server";
import { rootRedirectLocale } from "../i18n/root-redirect.server";
import { LOCALES, localePath } from "../i18n/locales";
import { isLevel, isStudyLanguage } from "../learning/vocabulary";
import { preferredEncoding } from "./accept-encoding";
import { createLoadContext } from "../server/client-ip.server";
import { hashedContentSecurityPolicy } from "../http/csp";
import { log } from "../server/log.server";
import { PUBLIC_PAGES } from "../http/public-pages";
import { PATHS } from "../http/paths";
import { canonicalVariantCookies } from "./variant-cookies.server";

/**
 * Anonymous public pages from memory. Each page is rendered once by the running app (its runtime configuration) for a
 * canonical request that carries only what may change an anonymous page: the path, whitelisted query parameters and
 * the cookies listed below. Visitors with a session or a toast, any other query and every other method go to React
 * Router. A response that sets a cookie, varies on anything else or is not a plain 200 is never stored.
 */

/** Request headers that change an anonymous page, with the values that matter (others count as absent). */
export const VARIANT_HEADERS: Record<string, (value: string) => string | null> = {
  "save-data": (value) => (value.trim().toLowerCase() === "on" ? "on" : null),
};
/** Cookies that make a page personal: their holders always get a fresh render. */
const BYPASS_COOKIES = ["__session", "toast", "sign-in-sent"];
/** Query parameters a page reads, with the values it accepts; any other query is rendered without the cache. */
const QUERY_WHITELIST: Record<string, Record<string, (value: string) => boolean>> = {
  [PATHS.explore]: { language: isStudyLanguage, level: isLevel },
};
/** Response headers that vary only in ways the key already covers. */
const HANDLED_VARY = new Set(["accept-encoding", "cookie", "accept-language", ...Object.keys(VARIANT_HEADERS)]);
const DROPPED_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "content-security-policy",
  "date",
  "etag",
  "connection",
  "transfer-encoding",
  "vary",
  "cache-control",
]);

const MAX_ENTRIES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;
/** Entries are renewed now and then, so the footer's year and similar clock-driven details stay right. */
const MAX_AGE_MS = 60 * 60 * 1000;

type Entry = {
  generation: number;
  expires: number;
  bytes: number;
  /** Null: the page answered with something that must not be shared; requests for it go to React Router. */
  bodies: { identity: Buffer; br: Buffer; gzip: Buffer } | null;
  etag: string;
  headers: Record<string, string>;
};

const pageKeys = new Map<string, string>(
  PUBLIC_PAGES.flatMap((page) =>
    LOCALES.flatMap((locale) =>
      [localePath(locale, page), `${localePath(locale, page)}/`].map((path) => [path, page] as const),
    ),
  ),
);
pageKeys.delete("//");

let generation = 0;
const invalidationListeners = new Set<() => void>();

/**
 * Forgets every cached page, and every in-memory copy of shipped data registered with `onPublicDataChange`; call it
 * when data shown on a public page changes (at start, when the public lists are loaded).
 */
export function invalidatePublicPages(): void {
  for (const listener of invalidationListeners) listener();
  generation++;
}

/** Registers a memory copy of shipped data to drop when public data changes. */
export function onPublicDataChange(listener: () => void): void {
  invalidationListeners.add(listener);
}

export function cookieValues(header: string | undefined): Map<string, string> {
  const values = new Map<string, string>();
  if (!header) return values;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index > 0) values.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return values;
}

type Lookup = { key: string; url: string; cookie: string; headers: [string, string][]; page: string };

/** Small bounded memos for the work every hit repeats on the same few strings. */
function memo<T>(max: number, compute: (key: string) => T): (key: string) => T {
  const values = new Map<string, T>();
  return (key) => {
    if (values.has(key)) return values.get(key)!;
    const value = compute(key);
    if (values.size >= max) values.delete(values.keys().next().value!);
    values.set(key, value);
    return value;
  };
}

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
const rootRedirectKnown = new Map<string, string | null>();
const rootRedirectKey = (req: IncomingMessage) =>
  `${req.headers.cookie ?? null}\n${req.headers["accept-language"] ?? null}\n${req.headers["user-agent"] ?? null}`;
function rootRedirectFor(req: IncomingMessage): Promise<string | null> {
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
function lookup(req: IncomingMessage): Lookup | null {
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

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/** The body without the render's nonce, and the hashes of its inline scripts. */
function withoutNonce(html: string, csp: string | null): { html: string; hashes: string[] } {
  const nonce = csp?.match(/'nonce-([^']+)'/)?.[1];
  const shared = nonce ? html.replaceAll(` nonce="${nonce}"`, "") : html;
  const hashes = new Set<string>();
  for (const [, attributes = "", content = ""] of shared.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/.test(attributes)) continue;
    hashes.add(createHash("sha256").update(content).digest("base64"));
  }
  return { html: shared, hashes: [...hashes] };
}

/**
 * A rendered document made fit to answer from memory: without its nonce (the CSP allows its inline scripts by hash),
 * compressed both ways at the given levels, with the response's headers except those set per answer.
 */
export async function keptDocument(response: Response, html: string, level: { brotli: number; gzip: number }) {
  const { html: shared, hashes } = withoutNonce(html, response.headers.get("Content-Security-Policy"));
  const identity = Buffer.from(shared);
  const [br, gz] = await Promise.all([
    brotli(identity, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: level.brotli,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip(identity, { level: level.gzip }),
  ]);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name)) headers[name] = value;
  });
  headers["content-security-policy"] = hashedContentSecurityPolicy(
    hashes,
    env.analyticsHosts,
    env.billing.redirectOrigins,
  );
  return { bodies: { identity, br, gzip: gz }, bytes: identity.length + br.length + gz.length, headers };
}

async function toEntry(response: Response, page: string, born: number): Promise<Entry> {
  // A refusal is remembered briefly: it may come from a passing failure rather than from the page.
  const pass: Entry = { generation: born, expires: Date.now() + 60_000, bytes: 0, bodies: null, etag: "", headers: {} };
  const vary = (response.headers.get("Vary") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const shareable =
    response.status === 200 &&
    response.headers.getSetCookie().length === 0 &&
    !/private|no-store/i.test(response.headers.get("Cache-Control") ?? "") &&
    vary.every((name) => HANDLED_VARY.has(name) && (name !== "accept-language" || page === "/"));
  if (!shareable) {
    await response.body?.cancel();
    return pass;
  }
  const { bodies, bytes, headers } = await keptDocument(response, await response.text(), { brotli: 11, gzip: 9 });
  const identity = bodies.identity;
  headers["cache-control"] = "public, max-age=0, must-revalidate";
  headers["vary"] = [
    "Accept-Encoding",
    "Cookie",
    ...(vary.includes("accept-language") ? ["Accept-Language"] : []),
    ...(vary.includes("save-data") ? ["Save-Data"] : []),
  ].join(", ");
  const etag = createHash("sha1").update(identity).digest("base64url").slice(0, 22);
  return {
    generation: born,
    expires: Date.now() + MAX_AGE_MS,
    bytes,
    bodies,
    etag,
    headers,
  };
}

type Ready = Entry & { bodies: NonNullable<Entry["bodies"]> };

/**
 * Writes a cached page (or 304). Headers are set one by one (not through writeHead's argument), so the server's own
 * policies may still amend them: `beforeWriteHead` does that where no wrapper of `writeHead` is in place.
 */
function send(
  req: IncomingMessage,
  res: ServerResponse,
  entry: Ready,
  beforeWriteHead?: (res: ServerResponse) => void,
) {
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  const etag = `"${entry.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
  const ifNoneMatch = req.headers["if-none-match"];
  const matches = ifNoneMatch?.split(",").some((tag) => {
    const clean = tag.trim().replace(/^W\//, "");
    return clean === "*" || clean.startsWith(`"${entry.etag}`);
  });
  if (matches) {
    res.setHeader("etag", etag);
    res.setHeader("vary", entry.headers.vary!);
    res.setHeader("cache-control", entry.headers["cache-control"]!);
    beforeWriteHead?.(res);
    res.writeHead(304);
    res.end();
    return;
  }
  const body = entry.bodies[encoding];
  for (const name in entry.headers) res.setHeader(name, entry.headers[name]!);
  res.setHeader("etag", etag);
  res.setHeader("content-length", body.length);
  if (encoding !== "identity") res.setHeader("content-encoding", encoding);
  beforeWriteHead?.(res);
  res.writeHead(200);
  res.end(req.method === "HEAD" ? undefined : body);
}

/** The cache in front of React Router: an Express-style middleware (`next` renders the request as usual). */
export function publicPageCache(build: ServerBuild) {
  const render = createRequestHandler(build, "production");
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<Entry>>();
  let bytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.bytes;
    entries.delete(key);
  }

  function store(key: string, entry: Entry) {
    if (entry.generation !== generation || entry.bytes > MAX_BYTES / 4) return;
    remove(key);
    entries.set(key, entry);
    bytes += entry.bytes;
    // Map order is insertion order: the first keys are the least recently used.
    for (const oldest of entries.keys()) {
      if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break;
      remove(oldest);
    }
  }

  async function fill(found: Lookup): Promise<Entry> {
    const born = generation;
    const headers = new Headers({ Accept: "text/html" });
    if (found.cookie) headers.set("Cookie", found.cookie);
    for (const [name, value] of found.headers) headers.set(name, value);
    const response = await render(new Request(new URL(found.url, env.APP_URL), { headers }), createLoadContext(null));
    const entry = await toEntry(response, found.page, born);
    store(found.key, entry);
    if (entry.bodies) log.debug("page cached", { path: found.url, bytes: entry.bytes, entries: entries.size });
    return entry;
  }

  async function serve(req: IncomingMessage, res: ServerResponse, next: () => void, found: Lookup): Promise<void> {
    // The bare root sends most visitors to their language: only those it would not redirect share its page.
    if (found.page === "/" && found.url === "/") {
      if (await rootRedirectFor(req)) return next();
    }
    let entry = entries.get(found.key);
    if (entry && (entry.generation !== generation || entry.expires < Date.now())) {
      remove(found.key);
      entry = undefined;
    }
    if (entry) {
      // Recently used entries move to the end, away from eviction.
      entries.delete(found.key);
      entries.set(found.key, entry);
    } else {
      let filling = pending.get(found.key);
      if (!filling) {
        filling = fill(found).finally(() => pending.delete(found.key));
        pending.set(found.key, filling);
      }
      entry = await filling;
    }
    if (!entry.bodies) return next();
    send(req, res, entry as Ready);
  }

  /** The entry ready for this request right now, or null (a miss, a stale entry, a page that is not shared). */
  function readyEntry(found: Lookup): Ready | null {
    const entry = entries.get(found.key);
    if (!entry?.bodies || entry.generation !== generation || entry.expires < Date.now()) return null;
    entries.delete(found.key);
    entries.set(found.key, entry);
    return entry as Ready;
  }

  function pageCacheMiddleware(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const found = lookup(req);
    if (!found) return next();
    serve(req, res, next, found).catch((error: unknown) => {
      log.error("page cache failed", { path: found.url, error });
      if (!res.headersSent) next();
    });
  }

  /**
   * The same answers as the middleware, for a plain node:http request before any framework sees it: true when a page
   * ready in memory was written (synchronously), false when the request must take the usual way (a miss, a request
   * with a body, a visitor the bare root may redirect and whose redirect is not known yet, anything not cached).
   */
  function answerFromMemory(
    req: IncomingMessage,
    res: ServerResponse,
    beforeWriteHead: (res: ServerResponse) => void,
  ): boolean {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return false;
    const found = lookup(req);
    if (!found) return false;
    if (found.page === "/" && found.url === "/") {
      const redirect = rootRedirectKnown.get(rootRedirectKey(req));
      if (redirect !== null) return false;
    }
    const entry = readyEntry(found);
    if (!entry) return false;
    send(req, res, entry, beforeWriteHead);
    return true;
  }

  return Object.assign(pageCacheMiddleware, { answerFromMemory });
}
