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

function pageFor(locale: Locale): Page {
  const errors = (resources[locale]!.common as { errors: Record<string, string> }).errors;
  const title = escapeHtml(errors.unavailable!);
  return {
    head:
      `<!DOCTYPE html><html lang="${locale}" dir="${localeDirection(locale)}"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
      `<title>${title}</title><style>${STYLE}</style>`,
    tail: `</head><body><main><h1>${title}</h1><p>${escapeHtml(errors.busyHint!)}</p><p><a href="`,
    tryAgain: escapeHtml(errors.tryAgain!),
  };
}

const pages = new Map<Locale, Page>(LOCALES.map((locale) => [locale, pageFor(locale)]));

/**
 * The answer to a refused request: 503 with Retry-After, at once and without reading the body. A page gets the
 * translated "busy" page of its locale (a GET one reloads itself after Retry-After, also without JavaScript); a
 * `.data` request gets a short text the client retries after Retry-After (app/http/overload-retry.client.ts).
 */
export function answerOverloaded(req: IncomingMessage, res: ServerResponse) {
  const url = req.url ?? "/";
  const query = url.indexOf("?");
  const pathname = query < 0 ? url : url.slice(0, query);
  res.statusCode = 503;
  res.setHeader("Retry-After", String(RETRY_AFTER_S));
  res.setHeader("Cache-Control", "no-store");
  // The body is not read: the connection closes after the answer, so what is left of it cannot be taken for a request.
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined)
    res.setHeader("Connection", "close");
  if (pathname.endsWith(".data")) {
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end("Service Unavailable\n");
    return;
  }
  const page = pages.get(splitLocale(pathname).locale)!;
  const again = escapeHtml(url.startsWith("/") && !url.startsWith("//") ? url : "/");
  const refresh = req.method === "GET" ? `<meta http-equiv="refresh" content="${RETRY_AFTER_S}">` : "";
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
/** A request that waited this long is refused when its turn comes: started now, it would be answered too late. */
export const QUEUE_MAX_WAIT_MS = 1_000;

type Waiting = { req: IncomingMessage; res: ServerResponse; at: number; beforeAnswer: () => void; start: () => void };

/**
 * A bound on the requests one process holds at once (`limit`, working or waiting), of which at most WORKING_AT_ONCE
 * are worked on; the others wait their turn first come, first served. Under overload, queueing more only makes every
 * answer late (and ends in timeouts): a quick 503 lets the client come back while the ones admitted are answered in
 * time. A request is refused when the bound is reached, when the queue stands (its oldest waited QUEUE_TARGET_MS), or
 * when it waited QUEUE_MAX_WAIT_MS for its turn; one whose client left while it waited is never started.
 */
export function loadShedder(limit: number) {
  const workingLimit = Math.min(limit, WORKING_AT_ONCE);
  const queue: Waiting[] = [];
  let working = 0;
  let refused = 0;
  let scheduled = false;

  function refuse(req: IncomingMessage, res: ServerResponse, beforeAnswer: () => void) {
    refused++;
    shedRequests.inc();
    beforeAnswer();
    answerOverloaded(req, res);
  }

  function begin(res: ServerResponse, start: () => void) {
    working++;
    res.once("close", () => {
      working--;
      scheduleNext();
    });
    start();
  }

  /** The next waiting request starts in a later turn of the event loop, after the sockets were read. */
  function scheduleNext() {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const now = performance.now();
      while (working < workingLimit && queue.length > 0) {
        const next = queue.shift()!;
        if (next.res.destroyed || next.res.writableEnded || next.req.socket.destroyed) continue;
        if (now - next.at >= QUEUE_MAX_WAIT_MS) refuse(next.req, next.res, next.beforeAnswer);
        else begin(next.res, next.start);
      }
    });
  }

  return {
    /**
     * Starts the request (`start`, now or once it is its turn; it counts until its response closes), or answers it
     * with 503. `beforeAnswer` sets the headers every answer carries.
     */
    admit(req: IncomingMessage, res: ServerResponse, beforeAnswer: () => void, start: () => void): void {
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      if (isExemptFromShedding(query < 0 ? url : url.slice(0, query))) return start();
      const now = performance.now();
      if (working + queue.length >= limit || (queue.length > 0 && now - queue[0]!.at >= QUEUE_TARGET_MS))
        return refuse(req, res, beforeAnswer);
      if (working < workingLimit && queue.length === 0) return begin(res, start);
      const waiting: Waiting = { req, res, at: now, beforeAnswer, start };
      queue.push(waiting);
      // A client that leaves frees its place at once.
      res.once("close", () => {
        const index = queue.indexOf(waiting);
        if (index >= 0) queue.splice(index, 1);
      });
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
