/**
 * The server, in production and in development: one Node process serving static assets, public pages from memory,
 * `/healthz` (liveness), `/readyz` (the database answers) and the React Router request handler, with compression,
 * security headers, request logs on stdout and a graceful stop on SIGTERM. With NODE_ENV=development (`npm run dev`)
 * Vite's middleware serves the sources with hot reload and the app is loaded through Vite; otherwise the build in
 * ./build is imported.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import type { AppServer } from "./app/app-server.server.ts";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_DIR = path.resolve(import.meta.dirname, "build");
const CLIENT_DIR = path.join(BUILD_DIR, "client");
/** The whole stop, database close included, stays under Docker's 10 s between SIGTERM and SIGKILL. */
const SHUTDOWN_DEADLINE_MS = 8_000;
/** Requests in flight get this long to finish; the rest of the deadline is the database's to close. */
const SHUTDOWN_DRAIN_MS = 6_000;
/** Forms are the only request bodies; anything else is refused with 405 and an Allow header. */
const ALLOWED_METHODS = "GET, HEAD, POST";

const app = express();
/** Set once the app is loaded: answers cached public pages before Express sees the request (production). */
let answerFromMemory: ((req: IncomingMessage, res: ServerResponse) => boolean) | null = null;
/** Set once the app is loaded: answers a learner's page kept in memory, after checking their session (production). */
let answerLearnerFromMemory: ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) | null = null;

/** Never a crash of the process: the request takes the usual way unless something was already sent. */
function afterMemoryFailed(req: IncomingMessage, res: ServerResponse, error: unknown) {
  log.error("answer from memory failed", { error: error instanceof Error ? error.message : String(error) });
  if (res.writableEnded) return;
  if (res.headersSent) return void res.destroy();
  app(req, res);
}

/** Set once the app is loaded (production): starts the request now or in its turn, or answers it 503 (overload). */
let admit: ((req: IncomingMessage, res: ServerResponse, start: () => void) => void) | null = null;

/** A request admitted: from memory when it is a learner's page kept there, otherwise through Express. */
function work(req: IncomingMessage, res: ServerResponse) {
  if (!answerLearnerFromMemory) return void app(req, res);
  answerLearnerFromMemory(req, res).then(
    (answered) => answered || void app(req, res),
    (error: unknown) => afterMemoryFailed(req, res, error),
  );
}

const server = createServer((req, res) => {
  // Every answer names its request, as its log line does (the proxy's id when TRUST_PROXY trusts it and it is plain).
  res.setHeader("X-Request-Id", entry.requestLogFields(req).requestId);
  entry.metrics.requestsInFlight.inc();
  res.once("close", () => entry.metrics.requestsInFlight.dec());
  try {
    if (answerFromMemory?.(req, res)) return;
  } catch (error) {
    return afterMemoryFailed(req, res, error);
  }
  if (!admit) return work(req, res);
  admit(req, res, () => work(req, res));
});

type App = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The build as loaded at start, for its route manifest. */
  loaded: ServerBuild;
  entry: AppServer;
  vite: ViteDevServer | null;
};
const appServerOf = (build: ServerBuild) => (build.entry.module as unknown as { appServer: AppServer }).appServer;

/** The app as built (production), or as Vite compiles it from the sources on each request (development). */
async function loadApp(): Promise<App> {
  if (!DEVELOPMENT) {
    const build = (await import(path.join(BUILD_DIR, "server", "index.js"))) as ServerBuild;
    return { build, loaded: build, entry: appServerOf(build), vite: null };
  }
  const { createServer: createViteServer } = await import("vite");
  const vite = await createViteServer({ server: { middlewareMode: true, hmr: { server } } });
  // A Vite server inside React Router's plugin exits the process on SIGTERM; this server drains requests first and
  // closes Vite itself (its own handlers are registered below, after this).
  process.removeAllListeners("SIGTERM");
  const build = () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  const loaded = await build();
  return { build, loaded, entry: appServerOf(loaded), vite };
}

// Loading the app validates the configuration: a bad variable stops the process here, naming it.
const { build, loaded, entry, vite } = await loadApp().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
const { env, log } = entry;

/**
 * No request may hold the event loop. Once a second, when the longest delay of a turn seen passed EVENT_LOOP_WARN_MS,
 * it is logged as a warning with the main thread's CPU time in that second (`cpuMs`) and the most CPU time it used
 * between two turns (`heldMs`, timed by a tick every EVENT_LOOP_TICK_MS). A delay with little CPU behind it is the
 * machine being busy (the process was not scheduled); one with as much CPU held between two turns is this process
 * working without a break. Ops see both; the tests of bounded work assert that the second kind never happens.
 */
const EVENT_LOOP_WARN_MS = 100;
const EVENT_LOOP_TICK_MS = 10;
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
const loopDelay = monitorEventLoopDelay({ resolution: EVENT_LOOP_TICK_MS });
loopDelay.enable();
let secondStartCpu = threadCpuMs();
let tickCpu = secondStartCpu;
let heldMs = 0;
setInterval(() => {
  const cpu = threadCpuMs();
  heldMs = Math.max(heldMs, cpu - tickCpu);
  tickCpu = cpu;
}, EVENT_LOOP_TICK_MS).unref();
setInterval(() => {
  const ms = loopDelay.max / 1e6;
  const cpu = threadCpuMs();
  if (ms > EVENT_LOOP_WARN_MS)
    log.warn("event loop blocked", {
      ms: Math.round(ms),
      cpuMs: Math.round(cpu - secondStartCpu),
      heldMs: Math.round(Math.max(heldMs, cpu - tickCpu)),
    });
  secondStartCpu = cpu;
  heldMs = 0;
  loopDelay.reset();
}, 1_000).unref();

/** Requests under this prefix are answered here, not by a route: they are logged and counted as `pattern`. */
const namedRoute =
  (pattern: string): express.RequestHandler =>
  (req, _res, next) => {
    ownRoute.set(req, pattern);
    next();
  };

app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);

let stopping = false;

/** The route pattern of a page's path; what server.ts answers itself is named here (`route` below). */
const patternOf = entry.routePatterns(loaded);
/** Never a throw from the response's finish handler: a path the matcher cannot read is logged as unmatched. */
const routePattern = (pathname: string) => {
  try {
    return patternOf(pathname);
  } catch {
    return "unmatched";
  }
};
/** Requests answered by server.ts itself, not by a route: the pattern their log line and metrics give. */
const ownRoute = new WeakMap<IncomingMessage, string>();

/**
 * One JSON line per answered request: its id (also the X-Request-Id header), the path without its query (query strings
 * can carry sign-in tokens and search terms), the route pattern it matched (what to group by), the status, the
 * duration, the client's address and the signed-in learner as a keyed hash (never an address or a token).
 */
function logRequest(req: IncomingMessage, pathname: string, status: number, started: bigint, ip?: string) {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const { requestId, learner } = entry.requestLogFields(req);
  const route = ownRoute.get(req) ?? routePattern(pathname);
  entry.metrics.requestDuration.observe({ method: req.method, route, status }, ms / 1000);
  const fields = {
    id: requestId,
    method: req.method,
    path: pathname,
    route,
    status,
    ms: Math.round(ms * 10) / 10,
    ip,
    learner,
  };
  if (pathname === "/healthz" || pathname === "/readyz") log.debug("request", fields);
  else log.info("request", fields);
}

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  log.debug("request started", { method: req.method, path: req.path });
  // While stopping, every answer closes its connection, so keep-alive sockets do not hold the process.
  if (stopping) res.setHeader("Connection", "close");
  res.on("finish", () => {
    if (stopping) server.closeIdleConnections();
    logRequest(req, req.path, res.statusCode, started, req.ip);
  });
  next();
});

function setSecurityHeaders(res: ServerResponse, pathname: string) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", entry.referrerPolicyFor(pathname));
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (env.secureCookies) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}

app.use((req, res, next) => {
  setSecurityHeaders(res, req.path);
  next();
});

/**
 * No address of the site holds a control character; an encoded one (`/error/%0A`) would match no route at all, so it
 * becomes U+FFFD and the path gets the translated 404 page. NUL is dropped from the query (PostgreSQL refuses it in a
 * string). React Router's adapter reads originalUrl.
 */
const withoutControlCharacters: express.RequestHandler = (req, _res, next) => {
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
const lowerCasePages: express.RequestHandler = (req, res, next) => {
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

const refuseOtherMethods: express.RequestHandler = (req, res, next) => {
  if (ALLOWED_METHODS.split(", ").includes(req.method)) return next();
  res.setHeader("Allow", ALLOWED_METHODS);
  res.status(405).type("text/plain").send("Method Not Allowed\n");
};

/**
 * A body larger than the limit is answered (413, by the app) without being read: the connection is closed rather than
 * drained. Chunked bodies are capped while the app reads them. React Router answers an Origin it cannot parse with a
 * plain-text 400 before the app's cross-site check; as the opaque "null" it gets the translated 403 page.
 */
const guardBodyAndOrigin: express.RequestHandler = (req, res, next) => {
  const length = Number(req.headers["content-length"] ?? 0);
  if (!(length <= entry.bodyLimitFor(req.path)) || req.headers["transfer-encoding"]) {
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

/** Anything that depends on the visitor is never stored by shared caches. */
const privateWhenPersonal: express.RequestHandler = (req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    if (!res.headersSent) markPersonal(req.method, req.path, req.headers.cookie, res);
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
};

function markPersonal(method: string, pathname: string, cookie: string | undefined, res: ServerResponse) {
  if (!isPersonal(method, pathname, cookie, res)) return;
  res.setHeader("Cache-Control", "private, no-store");
  res.setHeader("Vary", mergeVary(res.getHeader("Vary"), "Cookie"));
}

app.use(withoutControlCharacters, refuseOtherMethods, lowerCasePages, guardBodyAndOrigin, privateWhenPersonal);

const PERSONAL_PATH = /^(?:\/[a-z]{2})?\/(?:account|confirm|form|logout)(?:[/.]|$)|\.data$/;

/** A response for this visitor only: it sets a cookie, answers a session or a form, or is an account or data URL. */
function isPersonal(method: string, pathname: string, cookie: string | undefined, res: ServerResponse): boolean {
  if (pathname === "/healthz" || pathname === "/readyz" || pathname.startsWith("/assets/")) return false;
  return (
    res.getHeader("Set-Cookie") !== undefined ||
    method === "POST" ||
    /(?:^|;\s*)(?:__session|toast)=/.test(cookie ?? "") ||
    PERSONAL_PATH.test(pathname)
  );
}

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

/**
 * The client's address exactly as Express gives it (TRUST_PROXY applied), for a request Express never saw. Without
 * X-Forwarded-For it is the socket's peer whatever the setting; otherwise Express's own getter decides.
 */
const expressIp = (req: IncomingMessage) =>
  req.headers["x-forwarded-for"] === undefined
    ? req.socket.remoteAddress
    : (Object.setPrototypeOf(req, app.request) as express.Request).ip;

function mergeVary(current: ReturnType<ServerResponse["getHeader"]>, name: string): string {
  const values = String(current ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  return values.some((v) => v.toLowerCase() === name.toLowerCase()) ? values.join(", ") : [...values, name].join(", ");
}

// In production, anonymous visitors of the public pages get them from memory, precompressed
// (app/http/page-cache.server.ts), and hashed assets go out as the build compressed them.
if (!vite) {
  const pageCache = entry.publicPageCache(build as ServerBuild);
  app.use(pageCache);
  app.use("/assets", namedRoute("/assets/*"), entry.precompressedAssets(path.join(CLIENT_DIR, "assets")));
  // A page already in memory is answered ahead of Express, with the headers the middlewares above would give it
  // (security headers, the personal-response policy, the request log); requests with anything to guard go to Express.
  answerFromMemory = (req, res) => {
    if (stopping) return false;
    const started = process.hrtime.bigint();
    const answered = pageCache.answerFromMemory(req, res, () => {
      setSecurityHeaders(res, pathOf(req.url!));
      markPersonal(req.method!, pathOf(req.url!), req.headers.cookie, res);
    });
    if (answered) logRequest(req, pathOf(req.url!), res.statusCode, started, expressIp(req));
    return answered;
  };
  // Public pages from memory above are answered at once and never wait; everything else counts against the bound.
  const shedder = entry.loadShedder(env.MAX_REQUESTS_IN_FLIGHT);
  admit = (req, res, start) =>
    shedder.admit(
      req,
      res,
      () => {
        setSecurityHeaders(res, pathOf(req.url!));
        markPersonal(req.method!, pathOf(req.url!), req.headers.cookie, res);
      },
      start,
    );
  setInterval(() => {
    const refused = shedder.takeRefused();
    if (refused) log.warn("requests refused: too many in flight", { refused, limit: env.MAX_REQUESTS_IN_FLIGHT });
  }, 1_000).unref();
  answerLearnerFromMemory = async (req, res) => {
    if (stopping) return false;
    const started = process.hrtime.bigint();
    const answered = await entry.answerLearnerPage(req, res, () => {
      setSecurityHeaders(res, pathOf(req.url!));
      markPersonal(req.method!, pathOf(req.url!), req.headers.cookie, res);
    });
    if (answered) logRequest(req, pathOf(req.url!), res.statusCode, started, expressIp(req));
    return answered;
  };
}

// Pages rendered per request are compressed cheaply: at these sizes a higher level costs more CPU than it saves bytes.
app.use(compression({ level: 1, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } } }));

// Liveness: the process serves requests. It never touches the database, so a database outage does not make the
// proxy or the container runtime give up on an instance that still answers kept pages and the translated 503 page.
app.get("/healthz", (req, res) => {
  ownRoute.set(req, "/healthz");
  res.setHeader("Cache-Control", "no-store");
  res.status(200).type("text/plain").send("ok");
});

// Metrics for a scraper that holds METRICS_TOKEN (401 for anyone else); without the variable the path is an unknown page.
const metricsToken = env.METRICS_TOKEN;
if (metricsToken) {
  app.get("/metrics", async (req, res) => {
    ownRoute.set(req, "/metrics");
    res.setHeader("Cache-Control", "no-store");
    if (!entry.metrics.holdsBearerToken(req.headers.authorization, metricsToken)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      return void res.status(401).type("text/plain").send("Unauthorized\n");
    }
    const { registry } = entry.metrics;
    res
      .status(200)
      .type(registry.contentType)
      .send(await registry.metrics());
  });
}

/** One readiness check answers every /readyz request of the next second: a flood of them is not a flood of queries. */
const READINESS_REUSE_MS = 1_000;
let lastReadiness: { at: number; check: Promise<void> } | null = null;
function readiness(): Promise<void> {
  if (lastReadiness && Date.now() - lastReadiness.at < READINESS_REUSE_MS) return lastReadiness.check;
  const check = Promise.race([
    entry.checkHealth(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), 2_000).unref()),
  ]);
  // Logged once per check, not once per request it answers.
  check.catch((error: unknown) =>
    log.warn("readiness check failed", { error: error instanceof Error ? error.message : String(error) }),
  );
  lastReadiness = { at: Date.now(), check };
  return check;
}

// Readiness: the database is open, migrated and answering (503 while it is not, and while the server stops).
app.get("/readyz", async (req, res) => {
  ownRoute.set(req, "/readyz");
  res.setHeader("Cache-Control", "no-store");
  if (stopping) return void res.status(503).type("text/plain").send("stopping");
  try {
    await readiness();
    res.status(200).type("text/plain").send("ready");
  } catch {
    res.status(503).type("text/plain").send("unavailable");
  }
});

// In development Vite serves the sources, the public folder and its client for hot reload.
if (vite) app.use(vite.middlewares);

// Hashed file names never change content: cache them for a year.
app.use(
  "/assets",
  namedRoute("/assets/*"),
  express.static(path.join(CLIENT_DIR, "assets"), { immutable: true, maxAge: "1y", index: false, redirect: false }),
);

const renderPage = entry.requestHandler(build);
// No raw HTML or data file of the build is ever served (public pages come from memory, rendered at run time).
const staticFiles = express.static(CLIENT_DIR, { maxAge: "1h", index: false, redirect: false });
app.use((req, res, next) => {
  if (/\.(?:html|data)$/.test(req.path)) return next();
  // A file of the public folder is logged as one; what it does not hold goes on to the router, under its pattern.
  ownRoute.set(req, "static file");
  staticFiles(req, res, (error?: unknown) => {
    ownRoute.delete(req);
    next(error);
  });
});
// No path pattern: Express would answer a path it cannot decode (`/%zz`) with its own English 400 page.
app.use(renderPage);

// The database is opened and migrated right away (/readyz answers 503 until it is); a locked or unreachable one
// stops the process.
entry.start().catch((error: unknown) => {
  log.error("cannot start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

server.listen(env.PORT, env.HOST, () => {
  log.info("listening", { url: `http://${env.HOST}:${env.PORT}`, appUrl: env.APP_URL, development: DEVELOPMENT });
});
server.keepAliveTimeout = 65_000;
// A slow client cannot hold a connection open: headers within 10 s, the whole request within 30 s.
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;

async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  // Stop accepting connections first; requests in flight finish, idle keep-alive sockets close now.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  log.info("stopping", { signal });
  // Past the deadline nothing more is awaited: the process ends before the container runtime kills it.
  setTimeout(() => {
    log.error("stop deadline passed", { ms: Date.now() - started });
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS).unref();
  const forced = setTimeout(() => {
    log.warn("requests still running at the stop deadline: closing their connections");
    server.closeAllConnections();
  }, SHUTDOWN_DRAIN_MS);
  await closed;
  clearTimeout(forced);
  await vite?.close();
  await entry.shutdown();
  log.info("stopped", { ms: Date.now() - started });
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
