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
 * A bound on the requests one process works on at once. Under overload, queueing more only makes every answer late
 * (and ends in timeouts); a quick 503 lets the client come back while the ones admitted are answered in time.
 */
export function loadShedder(limit: number) {
  let inFlight = 0;
  let refused = 0;
  return {
    /**
     * Admits the request (true; it counts until its response closes), or answers it with 503 (false). `beforeAnswer`
     * sets the headers every answer carries.
     */
    admit(req: IncomingMessage, res: ServerResponse, beforeAnswer: () => void): boolean {
      const url = req.url ?? "/";
      const query = url.indexOf("?");
      if (isExemptFromShedding(query < 0 ? url : url.slice(0, query))) return true;
      if (inFlight >= limit) {
        refused++;
        shedRequests.inc();
        beforeAnswer();
        answerOverloaded(req, res);
        return false;
      }
      inFlight++;
      res.once("close", () => inFlight--);
      return true;
    },
    /** Requests refused since the last call (for a log line a second at most). */
    takeRefused(): number {
      const count = refused;
      refused = 0;
      return count;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

export type LoadShedder = ReturnType<typeof loadShedder>;
