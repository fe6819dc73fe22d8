/**
 * The production server: one Node process serving static assets, prerendered pages, `/healthz` and the React Router
 * request handler, with compression, security headers, request logs on stdout and a graceful stop on SIGTERM.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import type { Server } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";

const BUILD_DIR = path.resolve(import.meta.dirname, "build");
const CLIENT_DIR = path.join(BUILD_DIR, "client");
/** The origin prerendered pages were built with; replaced by APP_URL when they are served. */
const PRERENDER_ORIGIN = "http://prerender.invalid";
/** The whole stop, database close included, stays under Docker's 10 s between SIGTERM and SIGKILL. */
const SHUTDOWN_DEADLINE_MS = 8_000;
/** Requests in flight get this long to finish; the rest of the deadline is the database's to close. */
const SHUTDOWN_DRAIN_MS = 6_000;

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
  contentSecurityPolicy: (nonce: string | null, extraConnect?: string[]) => string;
  log: Record<"debug" | "info" | "warn" | "error", (message: string, fields?: Record<string, unknown>) => void>;
};
const entry = build.entry.module as AppEntry;
const { env, log } = entry;

type StaticPage = { body: Buffer; type: string; etag: string };

/** Prerendered HTML and data payloads, held in memory with the build-time origin replaced by APP_URL. */
async function loadPrerenderedPages(): Promise<Map<string, StaticPage>> {
  const pages = new Map<string, StaticPage>();
  const files = await readdir(CLIENT_DIR, { recursive: true }).catch(() => [] as string[]);
  for (const file of files) {
    const isHtml = file.endsWith(`${path.sep}index.html`) || file === "index.html";
    const isData = file.endsWith(".data");
    if (file.startsWith("assets") || (!isHtml && !isData)) continue;
    const text = (await readFile(path.join(CLIENT_DIR, file), "utf8")).replaceAll(PRERENDER_ORIGIN, env.APP_URL);
    const body = Buffer.from(text);
    const urlPath = "/" + file.split(path.sep).join("/").replace(/(^|\/)index\.html$/, "");
    pages.set(urlPath.replace(/\/$/, "") || "/", {
      body,
      type: isHtml ? "text/html; charset=utf-8" : "text/x-script; charset=utf-8",
      etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
    });
  }
  return pages;
}

const prerendered = await loadPrerenderedPages();
const app = express();
app.disable("x-powered-by");
app.set("trust proxy", env.TRUST_PROXY);

let stopping = false;

app.use((req, res, next) => {
  const started = process.hrtime.bigint();
  log.debug("request started", { method: req.method, path: req.path });
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

app.use(compression());

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
const staticCsp = entry.contentSecurityPolicy(null, env.analyticsHosts);
app.use((req, res, next) => {
  if (req.method !== "GET" && req.method !== "HEAD") return next();
  const page = prerendered.get(req.path.replace(/\/$/, "") || "/");
  if (!page || req.path === "/") return next();
  // The static copy is the anonymous page: a signed-in learner (or a pending toast) gets it rendered for them.
  if (/(?:^|;\s*)(?:__session|toast)=/.test(req.headers.cookie ?? "")) return void renderPage(req, res, next);
  res.setHeader("Content-Type", page.type);
  res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
  res.setHeader("ETag", page.etag);
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  if (page.type.startsWith("text/html")) res.setHeader("Content-Security-Policy", staticCsp);
  if (req.headers["if-none-match"] === page.etag) return void res.status(304).end();
  res.status(200).end(req.method === "HEAD" ? undefined : page.body);
});

app.use(express.static(CLIENT_DIR, { maxAge: "1h", index: false, redirect: false }));
app.all("/{*splat}", renderPage);

// The database is opened and migrated right away (/healthz answers 503 until it is); a locked or unreachable one
// stops the process.
entry.start().catch((error: unknown) => {
  log.error("cannot start", { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});

const server: Server = app.listen(env.PORT, env.HOST, () => {
  log.info("listening", { url: `http://${env.HOST}:${env.PORT}`, appUrl: env.APP_URL, prerendered: prerendered.size });
});
server.keepAliveTimeout = 65_000;

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
  await entry.shutdown();
  log.info("stopped", { ms: Date.now() - started });
  process.exit(0);
}
process.on("SIGTERM", () => void stop("SIGTERM"));
process.on("SIGINT", () => void stop("SIGINT"));
