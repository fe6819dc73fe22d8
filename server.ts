/**
 * The production server: one Node process serving static assets, anonymous public pages from memory, `/healthz` and
 * the React Router request handler, with compression, security headers, request logs on stdout and a graceful stop on SIGTERM.
 */
import type { Server } from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const BUILD_DIR = path.resolve(import.meta.dirname, "build");
const CLIENT_DIR = path.join(BUILD_DIR, "client");
const SHUTDOWN_GRACE_MS = 8_000;

const serverBuildPath = path.join(BUILD_DIR, "server", "index.js");
// Importing the build validates the configuration: a bad variable stops the process here, naming it.
const build = await import(serverBuildPath).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
type AppEntry = {
  env: { PORT: number; HOST: string; APP_URL: string; TRUST_PROXY: boolean; secureCookies: boolean; analyticsHosts: string[] };
  start: () => Promise<unknown>;
  checkHealth: () => Promise<void>;
  createLoadContext: (clientIp: string | null) => unknown;
  shutdown: () => Promise<void>;
  publicPageCache: (serverBuild: unknown) => express.RequestHandler;
  precompressedAssets: (dir: string) => express.RequestHandler;
  log: Record<"debug" | "info" | "warn" | "error", (message: string, fields?: Record<string, unknown>) => void>;
};
const entry = build.entry.module as AppEntry;
const { env, log } = entry;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);

let stopping = false;

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  // While stopping, every answer closes its connection, so keep-alive sockets do not hold the process.
  if (stopping) res.setHeader("Connection", "close");
  res.on("finish", () => {
    if (stopping) server.closeIdleConnections();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // The path only: query strings can carry sign-in tokens and search terms.
    const fields = { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10, ip: req.ip };
    if (req.path === "/healthz") log.debug("request", fields);
    else log.info("request", fields);
  });
  next();
});

app.use((_req, res, next) => {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  if (env.secureCookies) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  next();
});

// Anonymous visitors of the public pages get them from memory, precompressed (app/http/page-cache.server.ts), and
// hashed assets go out as the build compressed them (app/http/static-assets.server.ts).
app.use(entry.publicPageCache(build));
app.use("/assets", entry.precompressedAssets(path.join(CLIENT_DIR, "assets")));

// Pages rendered per request are compressed cheaply: at these sizes a higher level costs more CPU than it saves bytes.
app.use(compression({ level: 1, brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } } }));

app.get("/healthz", async (_req, res) => {
  try {
    await Promise.race([entry.checkHealth(), new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), 2_000))]);
    res.status(200).type("text/plain").send("ok");
  } catch (error) {
    log.warn("health check failed", { error: error instanceof Error ? error.message : String(error) });
    res.status(503).type("text/plain").send("unavailable");
  }
});

// Hashed file names never change content: cache them for a year.
app.use("/assets", express.static(path.join(CLIENT_DIR, "assets"), { immutable: true, maxAge: "1y", index: false, redirect: false }));

const renderPage = createRequestHandler({ build, getLoadContext: (req) => entry.createLoadContext(req.ip ?? null) as never });
app.use(express.static(CLIENT_DIR, { maxAge: "1h", index: false, redirect: false }));
app.all("/{*splat}", renderPage);

// The database is opened and migrated right away (/healthz answers 503 until it is); a locked or unreachable one
// stops the process.
entry.start().catch((error: unknown) => {
  log.error("cannot start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

const server: Server = app.listen(env.PORT, env.HOST, () => {
  log.info("listening", { url: `http://${env.HOST}:${env.PORT}`, appUrl: env.APP_URL });
});
server.keepAliveTimeout = 65_000;

async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info("stopping", { signal });
  // Stop accepting connections; requests in flight finish, idle keep-alive sockets close now.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await closed;
  clearTimeout(forced);
  await entry.shutdown();
  log.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
