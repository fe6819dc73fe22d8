/**
 * The edge: every request the server accepts comes here first. Public pages from memory and `/healthz` are answered
 * at once; the rest is admitted by load shedding once its body arrived (app/edge/body-admission.server.ts), answered from memory when it is a learner's page kept there, or goes
 * through Express (security headers, request log, the guards of a request, compression, static files) to React Router.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { readdirSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { env } from "../config/env.server";
import { learnTranslationFiles } from "../i18n/translation-files.server";
import { bodyLimitFor } from "../http/request-body.server";
import { checkHealth, hasStarted, whenStarted } from "../server/lifecycle.server";
import { log } from "../server/log.server";
import { holdsBearerToken, metrics, requestDuration, requestsInFlight } from "../server/metrics.server";
import { requestLogFields, routePatterns } from "../server/request-log.server";
import { isPersonalRequest, markPersonal, securityHeaderList, setSecurityHeaders } from "./headers.server";
import { DRAWN_LEVELS } from "./kept-document.server";
import { answerLearnerPage } from "./learner-pages.server";
import { bodyAdmission } from "./body-admission.server";
import { earlyWrites } from "./early-writes.server";
import { answerOverloaded, answerSlowBody, loadShedder } from "./load-shedding.server";
import { publicPageCache, type Around } from "./page-cache.server";
import {
  guardBodyAndOrigin,
  lowerCasePages,
  refuseOtherMethods,
  withoutControlCharacters,
} from "./request-guards.server";
import { knowRoutes } from "./staleness.server";
import { precompressedAssets } from "./static-assets.server";

export type EdgeOptions = {
  /** The build (production), or a function returning Vite's current one (development). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The build as loaded at start, for its route manifest. */
  loaded: ServerBuild;
  /** Vite's development server; null in production. */
  vite: ViteDevServer | null;
  /** The HTTP server, to close idle connections while stopping. */
  server: Server;
  /** The build's client folder (hashed assets and the public folder). */
  clientDir: string;
  /** True once the server stops: every answer then closes its connection. */
  stopping: () => boolean;
  /** React Router's request handler for Express. */
  renderPage: express.RequestHandler;
};

const pathOf = (url: string) => {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
};

/** The request handler of the HTTP server. */
export function createEdge({ build, loaded, vite, server, clientDir, stopping, renderPage }: EdgeOptions) {
  knowRoutes(loaded);
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);

  /** Requests answered here, not by a route: the pattern their log line and metrics give. */
  const ownRoute = new WeakMap<IncomingMessage, string>();
  const namedRoute =
    (pattern: string): express.RequestHandler =>
    (req, _res, next) => {
      ownRoute.set(req, pattern);
      next();
    };
  const patternOf = routePatterns(loaded);
  /** Never a throw from the response's finish handler: a path the matcher cannot read is logged as unmatched. */
  const routePattern = (pathname: string) => {
    try {
      return patternOf(pathname);
    } catch {
      return "unmatched";
    }
  };

  /**
   * One JSON line per answered request: its id (also the X-Request-Id header), the path without its query (query
   * strings can carry sign-in tokens and search terms), the route pattern it matched (what to group by), the status,
   * the duration, the client's address and the signed-in learner as a keyed hash (never an address or a token).
   */
  function logRequest(req: IncomingMessage, pathname: string, status: number, started: bigint, ip?: string) {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const { requestId, learner } = requestLogFields(req);
    const route = ownRoute.get(req) ?? routePattern(pathname);
    requestDuration.observe({ method: req.method, route, status }, ms / 1000);
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

  /**
   * The client's address exactly as Express gives it (TRUST_PROXY applied), for a request Express never saw. Without
   * X-Forwarded-For it is the socket's peer whatever the setting; otherwise Express's own getter decides.
   */
  const expressIp = (req: IncomingMessage) =>
    req.headers["x-forwarded-for"] === undefined
      ? req.socket.remoteAddress
      : (Object.setPrototypeOf(req, app.request) as express.Request).ip;

  /** The headers an answer given outside Express carries, as the middlewares below would give them. */
  const beforeAnswer = (req: IncomingMessage, res: ServerResponse) => () => {
    setSecurityHeaders(res, pathOf(req.url!));
    markPersonal(req.method!, pathOf(req.url!), req.headers.cookie, res);
  };
  /**
   * The server's part of a public page from memory: its headers, given to `writeHead` whole with the page's own, and
   * whether the request is personal (the sign-in page), which keeps the answer out of shared caches.
   */
  const aroundKeptPage = (req: IncomingMessage): Around => {
    const pathname = pathOf(req.url!);
    return {
      headers: () => [...securityHeaderList(pathname), "X-Request-Id", requestLogFields(req).requestId],
      personal: isPersonalRequest(req.method!, pathname, req.headers.cookie),
    };
  };

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    log.debug("request started", { method: req.method, path: req.path });
    // While stopping, every answer closes its connection, so keep-alive sockets do not hold the process.
    if (stopping()) res.setHeader("Connection", "close");
    res.on("finish", () => {
      if (stopping()) server.closeIdleConnections();
      logRequest(req, req.path, res.statusCode, started, req.ip);
    });
    next();
  });
  app.use((req, res, next) => {
    setSecurityHeaders(res, req.path);
    next();
  });
  /** Anything that depends on the visitor is never stored by shared caches. */
  const privateWhenPersonal: express.RequestHandler = (req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (!res.headersSent) markPersonal(req.method, req.path, req.headers.cookie, res);
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
  app.use(
    withoutControlCharacters,
    refuseOtherMethods,
    lowerCasePages,
    guardBodyAndOrigin(bodyLimitFor),
    privateWhenPersonal,
  );

  /** Answers a public page kept in memory ahead of Express (production). */
  let answerFromMemory: ((req: IncomingMessage, res: ServerResponse, otherwise: () => void) => boolean) | null = null;
  /** Answers a learner's page kept in memory, after checking their session (production). */
  let answerLearnerFromMemory: ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) | null = null;
  /** Starts the request now or in its turn, or answers it 503 (production). */
  let admit: ((req: IncomingMessage, res: ServerResponse, start: () => void) => void) | null = null;

  // In production, anonymous visitors of the public pages get them from memory, precompressed, and hashed assets go
  // out as the build compressed them.
  if (!vite) {
    const pageCache = publicPageCache(build as ServerBuild);
    app.use(pageCache);
    app.use("/assets", namedRoute("/assets/*"), precompressedAssets(path.join(clientDir, "assets")));
    // A signed-in learner's documents preload the page's translation files instead of carrying them (entry.server.tsx).
    learnTranslationFiles(path.join(clientDir, "assets"));
    answerFromMemory = (req, res, otherwise) => {
      if (stopping()) return false;
      const started = process.hrtime.bigint();
      const sent = () => logRequest(req, pathOf(req.url!), res.statusCode, started, expressIp(req));
      const ready = res.headersSent;
      const answered = pageCache.answerFromMemory(req, res, aroundKeptPage(req), { sent, otherwise });
      // Answered now: log it now (an answer that waits for a drawing logs itself when it is sent).
      if (answered && !ready && res.headersSent) sent();
      return answered;
    };
    // Public pages from memory above are answered at once and never wait; everything else counts against the bound.
    const shedder = loadShedder(env.MAX_REQUESTS_IN_FLIGHT);
    const clientOf = (req: IncomingMessage) => expressIp(req) ?? "";
    // A body arrives before its request takes a working slot (decision 093).
    const bodies = bodyAdmission({
      limitFor: bodyLimitFor,
      clientOf,
      awaiting: (req) => log.debug("body awaited", { method: req.method, path: pathOf(req.url!) }),
      refuse: (req, res, status) => {
        const started = process.hrtime.bigint();
        res.once("finish", () => logRequest(req, pathOf(req.url!), res.statusCode, started, clientOf(req)));
        beforeAnswer(req, res)();
        if (status === 408) answerSlowBody(req, res);
        else answerOverloaded(req, res, 429);
      },
    });
    admit = (req, res, start) =>
      bodies.receive(req, res, ({ upload }) =>
        shedder.admit(req, res, beforeAnswer(req, res), start, { client: clientOf(req), upload }),
      );
    setInterval(() => {
      const refused = shedder.takeRefused();
      if (refused) log.warn("requests refused: too many in flight", { refused, limit: env.MAX_REQUESTS_IN_FLIGHT });
    }, 1_000).unref();
    answerLearnerFromMemory = async (req, res) => {
      if (stopping()) return false;
      const started = process.hrtime.bigint();
      const answered = await answerLearnerPage(req, res, beforeAnswer(req, res));
      if (answered) logRequest(req, pathOf(req.url!), res.statusCode, started, expressIp(req));
      return answered;
    };
  }

  // Pages rendered per request are compressed cheaply (DRAWN_LEVELS); a drawn document already is (root middleware).
  app.use(
    compression({
      level: DRAWN_LEVELS.gzip,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: DRAWN_LEVELS.brotli } },
    }),
  );

  // Liveness: the process serves requests. It never touches the database, so a database outage does not make the
  // proxy or the container runtime give up on an instance that still answers kept pages and the translated 503 page.
  // Until the app has started once it answers 503: an instance starting (restarted after a crash) has nothing to
  // answer from memory, and the proxy sends its visitors to the others meanwhile.
  app.get("/healthz", (req, res) => {
    ownRoute.set(req, "/healthz");
    res.setHeader("Cache-Control", "no-store");
    if (!hasStarted()) return void res.status(503).type("text/plain").send("starting");
    res.status(200).type("text/plain").send("ok");
  });

  // Metrics for a scraper that holds METRICS_TOKEN (401 for anyone else); without the variable the path is an unknown page.
  const metricsToken = env.METRICS_TOKEN;
  if (metricsToken) {
    app.get("/metrics", async (req, res) => {
      ownRoute.set(req, "/metrics");
      res.setHeader("Cache-Control", "no-store");
      if (!holdsBearerToken(req.headers.authorization, metricsToken)) {
        res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
        return void res.status(401).type("text/plain").send("Unauthorized\n");
      }
      res
        .status(200)
        .type(metrics.contentType)
        .send(await metrics.metrics());
    });
  }

  // Readiness: the database is open, migrated and answering (503 while it is not, and while the server stops).
  const ready = readiness();
  app.get("/readyz", async (req, res) => {
    ownRoute.set(req, "/readyz");
    res.setHeader("Cache-Control", "no-store");
    if (stopping()) return void res.status(503).type("text/plain").send("stopping");
    try {
      await ready();
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
    express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, redirect: false }),
  );
  // No raw HTML or data file of the build is ever served (public pages come from memory, rendered at run time).
  const staticFiles = express.static(clientDir, { maxAge: "1h", index: false, redirect: false });
  // The public folder's top level, read once: a page's path is not looked up on disk first (a stat per request).
  const publicNames = topLevelNames(clientDir);
  app.use((req, res, next) => {
    if (/\.(?:html|data)$/.test(req.path)) return next();
    if (publicNames && !publicNames.has(firstSegment(req.path))) return next();
    // A file of the public folder is logged as one; what it does not hold goes on to the router, under its pattern.
    ownRoute.set(req, "static file");
    staticFiles(req, res, (error?: unknown) => {
      ownRoute.delete(req);
      next(error);
    });
  });
  // No path pattern: Express would answer a path it cannot decode (`/%zz`) with its own English 400 page.
  app.use(renderPage);

  /** Never a crash of the process: the request takes the usual way unless something was already sent. */
  function afterMemoryFailed(req: IncomingMessage, res: ServerResponse, error: unknown) {
    log.error("answer from memory failed", { error: error instanceof Error ? error.message : String(error) });
    if (res.writableEnded) return;
    if (res.headersSent) return void res.destroy();
    nameRequest(req, res);
    app(req, res);
  }

  /** A request admitted: from memory when it is a learner's page kept there, otherwise through Express. */
  function work(req: IncomingMessage, res: ServerResponse) {
    if (!answerLearnerFromMemory) return void app(req, res);
    answerLearnerFromMemory(req, res).then(
      (answered) => answered || void app(req, res),
      (error: unknown) => afterMemoryFailed(req, res, error),
    );
  }

  /** Every answer but a page from memory (which lists it with its own headers) names its request here. */
  function nameRequest(req: IncomingMessage, res: ServerResponse) {
    if (!res.headersSent) res.setHeader("X-Request-Id", requestLogFields(req).requestId);
  }

  /** A write that arrives while the app starts waits for it outside the working slots, a few for a while. */
  const holdEarlyWrite = earlyWrites({
    started: hasStarted,
    whenStarted,
    waits: (req) => log.info("write waits for the start", { method: req.method, path: pathOf(req.url!) }),
    waited: (req, ms, started) =>
      log.info("write waited for the start", { method: req.method, path: pathOf(req.url!), ms, started }),
  });

  /** Through admission (production) to the work; a write that arrives while the app starts waits for it first. */
  function proceed(req: IncomingMessage, res: ServerResponse) {
    nameRequest(req, res);
    holdEarlyWrite(req, res, () => (admit ? admit(req, res, () => work(req, res)) : work(req, res)));
  }

  return function handle(req: IncomingMessage, res: ServerResponse) {
    // Every answer names its request in X-Request-Id, as its log line does (the proxy's id when TRUST_PROXY trusts it
    // and it is plain): a page from memory with its headers, any other in `proceed`.
    requestsInFlight.inc();
    res.once("close", () => requestsInFlight.dec());
    try {
      if (answerFromMemory?.(req, res, () => proceed(req, res))) return;
    } catch (error) {
      return afterMemoryFailed(req, res, error);
    }
    proceed(req, res);
  };
}

/** One readiness check answers every /readyz request of the next second: a flood of them is not a flood of queries. */
const READINESS_REUSE_MS = 1_000;
function readiness(): () => Promise<void> {
  let last: { at: number; check: Promise<void> } | null = null;
  return () => {
    if (last && Date.now() - last.at < READINESS_REUSE_MS) return last.check;
    const check = Promise.race([
      checkHealth(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), 2_000).unref()),
    ]);
    // Logged once per check, not once per request it answers.
    check.catch((error: unknown) =>
      log.warn("readiness check failed", { error: error instanceof Error ? error.message : String(error) }),
    );
    last = { at: Date.now(), check };
    return check;
  };
}

/** The names at the top of a folder, or null when it cannot be read (then every path is looked up there). */
function topLevelNames(dir: string): Set<string> | null {
  try {
    return new Set(readdirSync(dir));
  } catch {
    return null;
  }
}

/** A path's first segment as a file name (`/favicon.svg` → `favicon.svg`), decoded as the static files are. */
function firstSegment(pathname: string) {
  const segment = pathname.split("/", 2)[1] ?? "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
