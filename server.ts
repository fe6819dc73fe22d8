/**
 * The server, in production and in development: loads the app, listens and stops. Every request goes to the app's
 * edge (app/edge/edge.server.ts: pages from memory, load shedding, security headers, request logs, `/healthz`,
 * `/readyz`, static files and React Router). With NODE_ENV=development (`npm run dev`) Vite's middleware serves the
 * sources with hot reload and the app is loaded through Vite; otherwise the build in ./build is imported.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import type { ServerBuild } from "react-router";
import type { AppServer } from "./app/app-server.server.ts";

const DEVELOPMENT = process.env.NODE_ENV === "development";
const BUILD_DIR = path.resolve(import.meta.dirname, "build");
/** The embedded database `npm run build` initialises, migrates and loads with the shipped data (scripts/data-template.ts). */
const BUILD_TEMPLATE_DIR = path.join(BUILD_DIR, "data-template");
/** The whole stop, database close included, stays under Docker's 10 s between SIGTERM and SIGKILL. */
const SHUTDOWN_DEADLINE_MS = 8_000;
/** Requests in flight get this long to finish; the rest of the deadline is the database's to close. */
const SHUTDOWN_DRAIN_MS = 6_000;

let handle: (req: IncomingMessage, res: ServerResponse) => void;
// Timeouts below are checked every second, not every 30 s (Node's default).
const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => handle(req, res));
let stopping = false;

const appServerOf = (build: ServerBuild) => (build.entry.module as unknown as { appServer: AppServer }).appServer;

/** The app as built (production), or as Vite compiles it from the sources on each request (development). */
async function loadApp() {
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

// The embedded database opens on its own thread while the app loads (app/db/pglite-early.ts). An empty data folder
// gets a copy of the build's template database (`npm run build` writes it) unless DATA_TEMPLATE_DIR names another.
if (!DEVELOPMENT && !process.env.DATABASE_URL) {
  const { startPgliteEarly } = await import("./app/db/pglite-early.ts");
  const { holdsDatabase } = await import("./app/db/template.server.ts");
  if (!process.env.DATA_TEMPLATE_DIR && holdsDatabase(BUILD_TEMPLATE_DIR))
    process.env.DATA_TEMPLATE_DIR = BUILD_TEMPLATE_DIR;
  startPgliteEarly();
}

// Loading the app validates the configuration: a bad variable stops the process here, naming it.
const { build, loaded, entry, vite } = await loadApp().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
const { env, log } = entry;
handle = entry.edge({
  build,
  loaded,
  vite,
  server,
  clientDir: path.join(BUILD_DIR, "client"),
  stopping: () => stopping,
});

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
