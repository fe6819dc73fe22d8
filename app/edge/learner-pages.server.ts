import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MiddlewareFunction } from "react-router";
import { getDatabase } from "../db/db.server";
import { handOnCheckedUser, learnerOfCookieHeader, SESSION_COOKIE, userContext } from "../auth/session.server";
import { TOAST_COOKIE } from "../toasts/toast.server";
import { splitLocale } from "../i18n/locales";
import { isDataRequest } from "../http/request-path";
import { preferredEncoding } from "./accept-encoding";
import { compressed, sharedDocument, type Levels } from "./kept-document.server";
import { cookieValues, VARIANT_HEADERS } from "./public-page-keys.server";
import { canonicalVariantCookies } from "./variant-cookies.server";
import { OwnerBoundedCache } from "./owner-bounded-cache";
import { collectStaleness, declaredBy, declaredByData } from "./staleness.server";
import { log } from "../server/log.server";
import { dataVersions, unchangedSince, type DataSet } from "../server/data-changes.server";
import { learnerTag, requestLogFields, UUID } from "../server/request-log.server";

/**
 * A learner's busiest pages from memory: those whose route declares `staleness.keptForLearner` (app/edge/staleness.ts),
 * today the learner's home, the review, term list and term pages, public lists and `/explore`, texts and the reader,
 * statistics, settings, the profile (per session), import and export, billing, the player. Such a page is drawn by React Router
 * as usual; the document (or the data a client navigation asks for, `.data`) is then kept for that learner, for the
 * URL and the cookies that change it, with the version of their data it was drawn from (`users.data_version`, moved
 * by database triggers on every write, whichever instance makes it) and of the shared data it shows (the public
 * lists: announced in this process, and polled from the database across instances). The next request for it is
 * answered before Express once the session is checked: the same session query every page makes, and a version
 * comparison. A write, a moment the matched routes declare as when the page changes by itself (a term falls due, the
 * day ends) or a minute passing, and the page is drawn again. A page any of whose routes with a loader declares
 * nothing is never kept. Toasts, cookies set by a response and every other page and method take the usual way.
 */

/**
 * The pages (their paths without the locale, ids written as `:id`) whose route asked to be kept, learnt as they are
 * drawn: until a page's first drawing in this process its requests take the usual way (a page's data, `.data`, is a
 * page of its own). One entry per route, whichever term or text it shows; bounded all the same, the least recently
 * learnt going first, so no path can keep another out.
 */
const PAGES = new Map<string, { perSession: boolean }>();
const MAX_PAGES = 128;
const pageOf = (pathname: string) => splitLocale(pathname).path.replace(UUID, ":id");
/** Cookies whose holders always get a fresh render: a toast to show. */
const BYPASS_COOKIES = [TOAST_COOKIE];
/** However still the data, a page is drawn again after this long (relative wording, the footer's year). */
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 2_000;
const MAX_BYTES = 32 * 1024 * 1024;
/**
 * Pages kept per learner (a dozen pages, a few of them in variants or for a few terms and texts): past it the
 * learner's own oldest goes, so no learner's requests (`?junk=1`, `?junk=2`…) can push another learner's pages out.
 */
const MAX_ENTRIES_PER_LEARNER = 24;
/** A learner's share of MAX_BYTES: a few very large pages (an import's preview) push out their own, not others'. */
const MAX_BYTES_PER_LEARNER = MAX_BYTES / 8;

type Entry = {
  version: number;
  /** The shared data sets the page shows (not the learner's own), and their versions when it was drawn. */
  shared: readonly DataSet[];
  drawnFrom: Readonly<Record<DataSet, number>>;
  expires: number;
  bytes: number;
  /**
   * The answer as drawn, made fit to share (`prepared`) when first asked for again: the review's card, drawn after
   * each grade, is seldom asked for twice before the next grade, and preparing it would cost a tenth of drawing it.
   */
  drawn: { response: Response; body: Uint8Array } | null;
  prepared?: { identity: Buffer; headers: Record<string, string> };
  /**
   * The body compressed for each encoding, made when first asked for: many a page drawn is never asked for again (the
   * next write comes first), and compressing it for nothing would cost more than drawing it.
   */
  compressed: { br?: Promise<Buffer>; gzip?: Promise<Buffer> };
};

/** Drawn for one learner and kept until their next write: a middle level, not the public pages' best. */
const LEVELS: Levels = { brotli: 5, gzip: 6 };
/** What an entry's bodies weigh at most against the bound: its own bytes, and both compressed ones under them. */
const WEIGHT = 2;

const utf8 = new TextDecoder();

const entries = new OwnerBoundedCache<Entry>({
  entries: MAX_ENTRIES,
  bytes: MAX_BYTES,
  perOwner: MAX_ENTRIES_PER_LEARNER,
  perOwnerBytes: MAX_BYTES_PER_LEARNER,
});
const learnerOf = (key: string) => key.slice(0, key.indexOf("\n"));
/** Pages being drawn for a learner's current version: requests for the same one wait instead of drawing it again. */
const drawing = new Map<string, Promise<void>>();
/** How long a request waits for another one's drawing of its page before drawing it itself. */
const DRAW_WAIT_MS = 3_000;

/**
 * The part of the key a request gives (URL and what varies the page), or null when it is not a page kept here (`any`:
 * whichever its path, for a page being drawn whose routes ask to be kept).
 */
function requestKey(
  url: string,
  cookieHeader: string | undefined,
  header: (name: string) => string | undefined,
  any = false,
) {
  let parsed: URL;
  try {
    parsed = new URL(url, "http://localhost");
  } catch {
    return null;
  }
  const page = any ? null : PAGES.get(pageOf(parsed.pathname));
  if (!any && !page) return null;
  const cookies = cookieValues(cookieHeader);
  if (BYPASS_COOKIES.some((name) => cookies.has(name))) return null;
  parsed.searchParams.sort();
  const cookie = canonicalVariantCookies(cookies);
  if (cookie === null) return null;
  const variants = cookie ? [cookie] : [];
  for (const [name, normalise] of Object.entries(VARIANT_HEADERS)) {
    const value = header(name);
    const normalised = value === undefined ? null : normalise(value);
    if (normalised) variants.push(`${name}:${normalised}`);
  }
  const key = `${parsed.pathname}?${parsed.searchParams}\n${variants.join(";")}`;
  return page?.perSession ? key + sessionPart(cookies) : key;
}

/** What keeps a page shown per session apart: a digest of the session cookie (never the cookie itself). */
function sessionPart(cookies: ReadonlyMap<string, string>) {
  const session = cookies.get(SESSION_COOKIE) ?? "";
  return `\nsession:${createHash("sha256").update(session).digest("base64url")}`;
}

function store(
  key: string,
  drawn: Pick<Entry, "version" | "expires" | "shared" | "drawnFrom">,
  response: Response,
  body: Uint8Array,
) {
  const entry: Entry = {
    ...drawn,
    bytes: body.byteLength * WEIGHT,
    drawn: { response, body },
    compressed: {},
  };
  if (entry.expires <= Date.now() || entry.bytes > MAX_BYTES / 16) return;
  entries.set(learnerOf(key), key, entry);
}

/** The kept body and headers, made from the drawn answer the first time the entry answers a request. */
function prepared(entry: Entry) {
  if (entry.prepared) return entry.prepared;
  const { response, body } = entry.drawn!;
  const { identity, headers } = sharedDocument(response, utf8.decode(body));
  headers["vary"] = [response.headers.get("Vary"), "Accept-Encoding"].filter(Boolean).join(", ");
  // As Express sends it when the page is drawn: a text type names its charset (React Router's data has none).
  const type = headers["content-type"];
  if (type?.startsWith("text/") && !/charset=/i.test(type)) headers["content-type"] = `${type}; charset=utf-8`;
  entry.drawn = null;
  return (entry.prepared = { identity, headers });
}

/**
 * The outermost middleware: keeps each plain document (or data) of the pages above that a learner is answered with, as
 * the other middlewares left it. Only a 200 answer (HTML, or data for a `.data` request) that sets no cookie and varies
 * on nothing the key misses is kept.
 */
export const learnerPagesMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const drawnAt = Date.now();
  // Taken before the loaders read: a change announced while they run leaves the page stale, never the reverse.
  const drawnFrom = dataVersions();
  collectStaleness(context);
  const response = await next();
  const user = context.get(userContext);
  if (!user || request.method !== "GET") return response;
  // A document, or the same page's data for client navigation (`/account/statistics.data`), kept apart by its path.
  const data = isDataRequest(request);
  if (!data && !declaredBy(context)?.keptForLearner) return response;
  const url = new URL(request.url);
  const path = splitLocale(url.pathname).path;
  // A data request for some of the page's routes only (`_routes`) is one of its own.
  const dataPath = `${path.replace(UUID, ":id")}?${url.searchParams.get("_routes") ?? ""}`;
  if (data && NOT_KEPT.has(dataPath)) return response;
  const key = requestKey(
    request.url,
    request.headers.get("Cookie") ?? undefined,
    (name) => request.headers.get(name) ?? undefined,
    true,
  );
  const vary = (response.headers.get("Vary") ?? "").toLowerCase();
  if (
    !key ||
    response.status !== 200 ||
    !response.headers.get("Content-Type")?.startsWith(data ? "text/x-script" : "text/html") ||
    response.headers.getSetCookie().length > 0 ||
    /[^,\s]/.test(vary.replace(/accept-encoding|cookie|save-data/g, ""))
  ) {
    return response;
  }
  // Read as bytes and answered with the same bytes: a document is decoded only if it is asked for again (`prepared`).
  const body = new Uint8Array(await response.arrayBuffer());
  const answer = () =>
    new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  const staleness = data ? await declaredByData(utf8.decode(body)).catch(() => null) : declaredBy(context);
  if (!staleness?.keptForLearner) {
    if (data && staleness) {
      if (NOT_KEPT.size >= 1_000) NOT_KEPT.clear();
      NOT_KEPT.add(dataPath);
    }
    return answer();
  }
  learnPage(pageOf(url.pathname), staleness.perSession);
  const session = staleness.perSession ? sessionPart(cookieValues(request.headers.get("Cookie") ?? undefined)) : "";
  const fullKey = `${user.id}\n${key}${session}`;
  const expires = Math.min(drawnAt + MAX_AGE_MS, staleness.changesAt);
  // A page that does not show the learner's data is not redrawn by their writes: it is kept with no version.
  const version = staleness.dependsOn.has("learner") ? user.dataVersion : ANY_VERSION;
  const shared = [...staleness.dependsOn].filter((set) => set !== "learner");
  try {
    store(fullKey, { version, expires, shared, drawnFrom }, response, body);
  } catch (error) {
    log.error("learner page not kept", { error: error instanceof Error ? error.message : String(error) });
  }
  return answer();
};

/** Remembers a page as kept, forgetting the least recently learnt one past MAX_PAGES. */
function learnPage(page: string, perSession: boolean) {
  PAGES.delete(page);
  PAGES.set(page, { perSession });
  for (const oldest of PAGES.keys()) {
    if (PAGES.size <= MAX_PAGES) break;
    PAGES.delete(oldest);
  }
}

/**
 * The data paths (ids written as `:id`, with the routes asked for) whose routes do not ask to be kept, learnt from
 * their first answer: their data is sent as React Router streams it, not read and decoded again. Bounded: forgotten
 * whole when full.
 */
const NOT_KEPT = new Set<string>();

/** An entry's body for an encoding, compressed the first time it is asked for and kept with the entry. */
function compressedBody(entry: Entry, encoding: "br" | "gzip"): Promise<Buffer> {
  let body = entry.compressed[encoding];
  if (!body) {
    const made = compressed(prepared(entry).identity, encoding, LEVELS);
    made.catch(() => {
      if (entry.compressed[encoding] === made) delete entry.compressed[encoding];
    });
    entry.compressed[encoding] = body = made;
  }
  return body;
}

/** The version of a page kept whatever the learner writes (its routes do not depend on their data). */
const ANY_VERSION = -1;

/** The kept page for this key, if drawn from this data version and not yet expired. */
function current(fullKey: string, version: number): Entry | null {
  const entry = entries.get(fullKey);
  if (!entry) return null;
  const fresh = unchangedSince(entry.shared, entry.drawnFrom);
  if ((entry.version === version || entry.version === ANY_VERSION) && entry.expires > Date.now() && fresh) return entry;
  if (entry.version <= version || !fresh) entries.delete(fullKey);
  return null;
}

/**
 * Answers a plain GET/HEAD for a page kept above, for the learner its session names, when the page was drawn from
 * their current data and has not expired; false (nothing written) sends the request the usual way.
 */
export async function answerLearnerPage(
  req: IncomingMessage,
  res: ServerResponse,
  beforeWriteHead: (res: ServerResponse) => void,
): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) return false;
  const cookieHeader = req.headers.cookie;
  if (!cookieHeader?.includes(`${SESSION_COOKIE}=`)) return false;
  const key = requestKey(req.url ?? "/", cookieHeader, (name) => {
    const value = req.headers[name];
    return typeof value === "string" ? value : undefined;
  });
  if (!key) return false;
  // A database that fails here fails the usual way too, which answers it (503 page) and logs it once.
  const user = await getDatabase()
    .then((db) => learnerOfCookieHeader(db, cookieHeader))
    .catch(() => null);
  if (!user) return false;
  requestLogFields(req).learner = learnerTag(user.id);
  const fullKey = `${user.id}\n${key}`;
  let entry = current(fullKey, user.dataVersion);
  if (!entry) {
    // One request draws the page (the usual way); others for the same page and version wait for it to be kept.
    const drawKey = `${fullKey}\n${user.dataVersion}`;
    const drawn = drawing.get(drawKey);
    if (!drawn) {
      let finish!: () => void;
      drawing.set(drawKey, new Promise<void>((resolve) => (finish = resolve)));
      // Kept (or not) before its answer is sent: once it is, the requests that waited find it.
      res.once("close", () => {
        drawing.delete(drawKey);
        finish();
      });
      // Drawn now, the usual way: its session middleware takes the learner just read instead of reading them again.
      handOnCheckedUser(req, user);
      return false;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drawn, new Promise((resolve) => (timer = setTimeout(resolve, DRAW_WAIT_MS)))]);
    clearTimeout(timer);
    entry = current(fullKey, user.dataVersion);
    if (!entry) return false;
  }
  // Recently used entries move to the end, away from eviction.
  entries.touch(fullKey);
  const encoding = preferredEncoding(req.headers["accept-encoding"]);
  let document: NonNullable<Entry["prepared"]>;
  try {
    document = prepared(entry);
  } catch (error) {
    entries.delete(fullKey);
    log.error("learner page not kept", { error: error instanceof Error ? error.message : String(error) });
    return false;
  }
  const { identity, headers } = document;
  const body = encoding === "identity" ? identity : await compressedBody(entry, encoding);
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader("content-length", body.length);
  if (encoding !== "identity") res.setHeader("content-encoding", encoding);
  beforeWriteHead(res);
  res.writeHead(200);
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
