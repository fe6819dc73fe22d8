import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { LOCALES, localeDirection, splitLocale, type Locale } from "../i18n/locales";
import { resources } from "../i18n/resources.server";
import { shedRequests } from "../server/metrics.server";

/** How long a refused client is asked to wait before it tries again, in seconds. */
export const RETRY_AFTER_S = 2;

/**
 * Paths never refused: health checks must answer first under overload (a refused one would take the instance out of
 * its load balancer exactly when it is busiest), and files (hashed assets, favicon, robots.txt) cost nothing to send.
 * `.data` is React Router's data of a page, not a file.
 */
export function isExemptFromShedding(pathname: string): boolean {
  if (pathname === "/healthz" || pathname === "/readyz" || pathname.startsWith("/assets/")) return true;
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  return last.includes(".") && !last.endsWith(".data");
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const STYLE =
  "body{font:1rem/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#fff;color:#1a1a1a}" +
  "main{max-width:36rem;margin:0 auto}h1{font-size:1.5rem;line-height:1.25}a{color:#0b57d0}" +
  "@media (prefers-color-scheme:dark){body{background:#121212;color:#ececec}a{color:#8ab4f8}}";
/** No script at all; the one inline style is allowed by its hash. */
const CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

type Page = { head: string; tail: string; tryAgain: string };
/** The page's title and hint (keys of `errors`): too busy, or a body that took too long to arrive. */
type Refusal = "busy" | "slowBody";
const TEXTS: Record<Refusal, [title: string, hint: string]> = {
  busy: ["unavailable", "busyHint"],
  slowBody: ["slowBody", "slowBodyHint"],
};

function pageFor(locale: Locale, refusal: Refusal): Page {
  const errors = (resources[locale]!.common as { errors: Record<string, string> }).errors;
  const [titleKey, hintKey] = TEXTS[refusal];
  const title = escapeHtml(errors[titleKey]!);
  return {
    head:
      `<!DOCTYPE html><html lang="${locale}" dir="${localeDirection(locale)}"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
      `<title>${title}</title><style>${STYLE}</style>`,
    tail: `</head><body><main><h1>${title}</h1><p>${escapeHtml(errors[hintKey]!)}</p><p><a href="`,
    tryAgain: escapeHtml(errors.tryAgain!),
  };
}

const pages = new Map<string, Page>(
  LOCALES.flatMap((locale) =>
    (["busy", "slowBody"] as const).map((refusal) => [`${refusal}:${locale}`, pageFor(locale, refusal)]),
  ),
);

/**
 * The answer to a refused request: 503 with Retry-After, at once and without reading the body. A page gets the
 * translated "busy" page of its locale (a GET one reloads itself after Retry-After, also without JavaScript); a
 * `.data` request gets a short text the client retries after Retry-After (app/http/overload-retry.client.ts). A client
 * past its share gets the same with 429.
 */
export function answerOverloaded(req: IncomingMessage, res: ServerResponse, status: 503 | 429 = 503) {
  answerRefused(req, res, status, "busy");
}

/** The answer to a form whose body did not arrive in time: 408 with the translated page, the connection closed. */
export function answerSlowBody(req: IncomingMessage, res: ServerResponse) {
  answerRefused(req, res, 408, "slowBody");
}

function answerRefused(req: IncomingMessage, res: ServerResponse, status: number, refusal: Refusal) {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const pathname = query < 0 ? url : url.slice(0, query);
  res.statusCode = status;
  if (refusal === "busy") res.setHeader("Retry-After", String(RETRY_AFTER_S));
  res.setHeader("Cache-Control", "no-store");
  // The body is not read: the connection closes after the answer, so what is left of it cannot be taken for a request.
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined)
    res.setHeader("Connection", "close");
  if (pathname.endsWith(".data")) {
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(refusal === "busy" ? "Service Unavailable\n" : "Request Timeout\n");
    return;
  }
  const page = pages.get(`${refusal}:${splitLocale(pathname).locale}`)!;
  const again = escapeHtml(url.startsWith("/") && !url.startsWith("//") ? url : "/");
  const refresh =
    req.method === "GET" && refusal === "busy" ? `<meta http-equiv="refresh" content="${RETRY_AFTER_S}">` : "";
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Security-Policy", CSP);
  res.end(`${page.head}${refresh}${page.tail}${again}">${page.tryAgain}</a></p></main></body></html>`);
}

/**
 * Requests worked on at once, at most. The app's work is mostly on the main thread (rendering, and PGlite's queries),
 * and a chain of queries resolves in microtasks without giving the event loop a turn: every request started together
 * is finished together, and no new request is even read meanwhile (`/healthz` included). A few at once keep PostgreSQL's
 * pool and the page's streaming busy; more only make each one later.
 */
export const WORKING_AT_ONCE = 8;
/**
 * CoDel's target: when the oldest waiting request has waited this long, the queue is standing (it does not drain
 * between arrivals) and a new request is refused at once instead of joining it.
 */
export const QUEUE_TARGET_MS = 500;
/** A request that waited this long is refused (on a timer): started now, it would be answered too late. */
export const QUEUE_MAX_WAIT_MS = 1_000;
/**
 * The working slots one client (its address) takes while others' requests wait: past it, the next waiting request of
 * another client starts first. A client alone may take every slot.
 */
export const CLIENT_SHARE = WORKING_AT_ONCE / 2;
/**
 * Working slots held by uploads (bodies larger than a form's, admitted before they arrive: app/edge/body-admission):
 * the others stay free for requests whose bodies already arrived.
 */
export const UPLOADS_AT_ONCE = 2;

/** Who asks, for the shares above. */
export type Asker = { client: string; upload: boolean };

type Waiting = {
  req: IncomingMessage;
  res: ServerResponse;
  at: number;
  asker: Asker;
  beforeAnswer: () => void;
  start: () => void;
  timer: NodeJS.Timeout;
};

/**
 * A bound on the requests one process holds at once (`limit`, working or waiting), of which at most WORKING_AT_ONCE
 * are worked on (UPLOADS_AT_ONCE of them uploads); the others wait their turn first come, first served, except that a
 * client holding CLIENT_SHARE slots lets other clients' requests go first. Under overload, queueing more only makes
 * every answer late (and ends in timeouts): a quick 503 lets the client come back while the ones admitted are answered
 * in time. A request is refused when the bound is reached, when the queue stands (its oldest waited QUEUE_TARGET_MS),
 * or once it waited QUEUE_MAX_WAIT_MS; one whose client left while it waited is never started.
 */
export function loadShedder(limit: number) {
  const workingLimit = Math.min(limit, WORKING_AT_ONCE);
  const queue: Waiting[] = [];
  const workingOf = new Map<string, number>();
  let working = 0;
  let uploads = 0;
  let refused = 0;
  let scheduled = false;

  function refuse(req: IncomingMessage, res: ServerResponse, beforeAnswer: () => void) {
    refused++;
    shedRequests.inc();
    beforeAnswer();
    answerOverloaded(req, res);
  }

  const mayStart = (asker: Asker) => working < workingLimit && (!asker.upload || uploads < UPLOADS_AT_ONCE);

  function begin(res: ServerResponse, asker: Asker, start: () => void) {
    working++;
    if (asker.upload) uploads++;
    workingOf.set(asker.client, (workingOf.get(asker.client) ?? 0) + 1);
    res.once("close", () => {
      working--;
      if (asker.upload) uploads--;
      const left = workingOf.get(asker.client)! - 1;
      if (left === 0) workingOf.delete(asker.client);
      else workingOf.set(asker.client, left);
      scheduleNext();
    });
    start();
  }

  /** The waiting request to start next: the first that may start, one of a client within its share if any. */
  function nextIndex(): number {
    let first = -1;
    for (let index = 0; index < queue.length; index++) {
      const { asker } = queue[index]!;
      if (!mayStart(asker)) continue;
      if ((workingOf.get(asker.client) ?? 0) < CLIENT_SHARE) return index;
      if (first < 0) first = index;
    }
    return first;
  }

  /** The next waiting request starts in a later turn of the event loop, after the sockets were read. */
  function scheduleNext() {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      for (let index = nextIndex(); index >= 0; index = nextIndex()) {
        const [next] = queue.splice(index, 1) as [Waiting];
        clearTimeout(next.timer);
        if (next.res.destroyed || next.res.writableEnded || next.req.socket.destroyed) continue;
        begin(next.res, next.asker, next.start);
      }
    });
  }

  return {
    /**
     * Starts the request (`start`, now or once it is its turn; it counts until its response closes), or answers it
     * with 503. `beforeAnswer` sets the headers every answer carries.
     */
    admit(
      req: IncomingMessage,
      res: ServerResponse,
      beforeAnswer: () => void,
      start: () => void,
      asker: Asker = { client: "", upload: false },
    ): void {
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      if (isExemptFromShedding(query < 0 ? url : url.slice(0, query))) return start();
      const now = performance.now();
      if (working + queue.length >= limit || (queue.length > 0 && now - queue[0]!.at >= QUEUE_TARGET_MS))
        return refuse(req, res, beforeAnswer);
      // Nothing waiting could start now (uploads past their bound wait for an upload to end): this one may.
      if (mayStart(asker) && nextIndex() < 0) return begin(res, asker, start);
      const leave = () => {
        const index = queue.indexOf(waiting);
        if (index < 0) return false;
        queue.splice(index, 1);
        clearTimeout(waiting.timer);
        return true;
      };
      // Refused once it waited too long, whether or not a slot frees meanwhile.
      const timer = setTimeout(() => {
        if (leave() && !res.destroyed && !res.writableEnded) refuse(req, res, beforeAnswer);
      }, QUEUE_MAX_WAIT_MS);
      const waiting: Waiting = { req, res, at: now, asker, beforeAnswer, start, timer };
      queue.push(waiting);
      // A client that leaves frees its place at once.
      res.once("close", leave);
    },
    /** Requests refused since the last call (for a log line a second at most). */
    takeRefused(): number {
      const count = refused;
      refused = 0;
      return count;
    },
    /** Requests held: worked on and waiting. */
    get inFlight() {
      return working + queue.length;
    },
  };
}

export type LoadShedder = ReturnType<typeof loadShedder>;
