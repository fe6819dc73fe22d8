import type { IncomingMessage } from "node:http";
import type express from "express";

/** Forms are the only request bodies; anything else is refused with 405 and an Allow header. */
const ALLOWED_METHODS = "GET, HEAD, POST";

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

/**
 * No address of the site holds a control character; an encoded one (`/error/%0A`) would match no route at all, so it
 * becomes U+FFFD and the path gets the translated 404 page. NUL is dropped from the query (PostgreSQL refuses it in a
 * string). React Router's adapter reads originalUrl.
 */
export const withoutControlCharacters: express.RequestHandler = (req, _res, next) => {
  const queryStart = req.url.indexOf("?");
  const pathPart = queryStart === -1 ? req.url : req.url.slice(0, queryStart);
  const queryPart = req.url.slice(pathPart.length);
  if (/%(?:[01][0-9a-f]|7f)/i.test(pathPart) || /%00/.test(queryPart)) {
    req.url = req.originalUrl =
      pathPart.replace(/%(?:[01][0-9a-f]|7f)/gi, "%EF%BF%BD") + queryPart.replaceAll("%00", "");
  }
  next();
};

/**
 * Routes match their paths in one letter case (app/routes.ts): a page address typed or linked in another case
 * (`/de/SUBSCRIPTION`, `/ACCOUNT/PLAYER`) is sent to its lower-case form before anything else sees it, so the sign-in
 * guard, the private-response rule and the caches only ever see the paths the router matches. Files (a dot in the last
 * segment, the hashed assets) keep their names; other methods get the router's own answer.
 */
export const lowerCasePages: express.RequestHandler = (req, res, next) => {
  if ((req.method !== "GET" && req.method !== "HEAD") || !/[A-Z]/.test(req.path)) return next();
  const pathPart = pathOf(req.url);
  if (pathPart.startsWith("/assets/") || /\.[^/]*$/.test(pathPart)) return next();
  // Never a redirect off the site: `//Evil.example` or a backslash would leave it (the router answers 404 for them).
  if (pathPart.startsWith("//") || pathPart.includes("\\")) return next();
  const lower = pathPart.replace(/%[0-9A-F]{2}|[A-Z]+/g, (match) =>
    match.startsWith("%") ? match : match.toLowerCase(),
  );
  if (lower === pathPart) return next();
  // The query (a sign-in token, say) goes along unchanged; no cache keeps the answer.
  res.setHeader("Cache-Control", "private, no-store");
  res.redirect(301, lower + req.url.slice(pathPart.length));
};

export const refuseOtherMethods: express.RequestHandler = (req, res, next) => {
  if (ALLOWED_METHODS.split(", ").includes(req.method)) return next();
  res.setHeader("Allow", ALLOWED_METHODS);
  res.status(405).type("text/plain").send("Method Not Allowed\n");
};

/**
 * A body larger than the limit is answered (413, by the app) without being read: the connection is closed rather than
 * drained. Chunked bodies are capped while the app reads them. React Router answers an Origin it cannot parse with a
 * plain-text 400 before the app's cross-site check; as the opaque "null" it gets the translated 403 page.
 */
export const guardBodyAndOrigin =
  (bodyLimitFor: (pathname: string) => number): express.RequestHandler =>
  (req, res, next) => {
    const length = Number(req.headers["content-length"] ?? 0);
    if (!(length <= bodyLimitFor(req.path)) || req.headers["transfer-encoding"]) {
      res.setHeader("Connection", "close");
      lingerAfterAnswer(req);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== "null" && !URL.canParse(origin)) req.headers.origin = "null";
    next();
  };

/** How long a connection whose body was left unread keeps discarding it after the answer before it is closed. */
const LINGER_MS = 5_000;

/**
 * Closing a socket with unread bytes makes the kernel reset the connection, and a reset can throw away the 413 the
 * client has not read yet. So, for a connection Node closes after its answer, the answer is sent with a half-close,
 * what still arrives is read and dropped (no copy kept), and the socket is closed at most LINGER_MS later.
 */
function lingerAfterAnswer(req: IncomingMessage) {
  const socket = req.socket;
  const close = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (req.complete) return close();
    socket.end();
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.once("end", close);
    req.resume();
    setTimeout(close, LINGER_MS).unref();
  };
}
