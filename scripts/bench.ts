/**
 * Performance budget and load benchmark of the production build (`npm run build` first, then `npm run bench`).
 *
 *   1. Size budgets: the HTML of `/` and the JavaScript a browser downloads on its first load of `/`, gzipped.
 *   2. Throughput of GET `/` (autocannon, 50 connections, 10 s) next to a bare node:http server sending the same bytes.
 *   3. Server time of the member explore page and of a review grade for a learner with 10,000 terms, on PGlite and on
 *      PostgreSQL (a throwaway server from scripts/support/postgres.ts).
 *
 * Everything runs on 127.0.0.1 in temporary directories that are removed at the end, failure or not. The report is
 * printed and written to bench-results.json. Knobs for quick trials (defaults are the benchmark's):
 * BENCH_TERMS (10000), BENCH_SAMPLES (200), BENCH_DURATION_S (10), BENCH_CONNECTIONS (50), BENCH_BROWSER=0 (no Chromium).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { freePort, startPostgres } from "./support/postgres.ts";
import { BROWSER_USER_AGENT } from "./support/app-process.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const RESULTS_FILE = path.join(ROOT, "bench-results.json");
const EMAIL = "bench.learner@example.test";
const SEED = 20_261_122;

function knob(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}
const TERMS = knob("BENCH_TERMS", 10_000);
const SAMPLES = knob("BENCH_SAMPLES", 200);
const RPS_DURATION_S = knob("BENCH_DURATION_S", 10);
const RPS_CONNECTIONS = knob("BENCH_CONNECTIONS", 50);
const USE_BROWSER = process.env.BENCH_BROWSER !== "0";
/** A series stops early (and says so) after this long, to keep the whole run within about four minutes. */
const SERIES_CAP_MS = 30_000;

const BASE_HEADERS = {
  "User-Agent": BROWSER_USER_AGENT,
  Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "Accept-Language": "en",
};
/** What a browser sends on page loads; the app's responses are then compressed as they would be for a browser. */
const BROWSER_ENCODINGS = "gzip, deflate, br";

// ---------------------------------------------------------------------------------------------------------------
// Clean-up: every temp dir and process is registered here and undone in reverse order, also on failure or Ctrl-C.

type Cleanup = { label: string; run: () => unknown };
const cleanups: Cleanup[] = [];
function onCleanup(label: string, run: () => unknown): () => void {
  const entry = { label, run };
  cleanups.push(entry);
  return () => {
    const index = cleanups.indexOf(entry);
    if (index >= 0) cleanups.splice(index, 1);
  };
}
let cleaning: Promise<void> | null = null;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    while (cleanups.length > 0) {
      const entry = cleanups.pop()!;
      try {
        await entry.run();
      } catch (error) {
        console.error(`clean-up of ${entry.label} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return cleaning;
}
/** Set on Ctrl-C: no new requests, so the servers can stop at once. */
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const progress = (message: string) => console.error(`[${elapsed().padStart(7)}] ${message}`);

/** Waits for a child to end: SIGTERM, then SIGKILL after `graceMs`. */
async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(killer);
}

// ---------------------------------------------------------------------------------------------------------------
// The app server: `node server.ts` as ops run it, its JSON log written to a file (read for the sign-in link and the
// server's own request times) rather than piped through this process, which is busy generating load.

/** Configuration of the bench's own environment that must not leak into the server. */
const APP_VARIABLES = [
  "NODE_ENV", "PORT", "HOST", "APP_URL", "SESSION_SECRET", "DATA_DIR", "DATABASE_URL", "SMTP_URL", "MAIL_FROM", "AUTH_PROVIDER",
  "SUPABASE_URL", "SUPABASE_ANON_KEY", "APP_STAGE", "POSTHOG_KEY", "POSTHOG_HOST", "WEB_ANALYTICS_SRC", "TRUST_PROXY", "LOG_LEVEL",
];

type LogEntry = Record<string, unknown>;
type AppServer = { label: string; baseUrl: string; logFile: string; startMs: number; logs(): LogEntry[]; stop(): Promise<void> };

function readLog(file: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      entries.push(JSON.parse(line) as LogEntry);
    } catch {
      // a line being written right now
    }
  }
  return entries;
}

const logTail = (file: string) => readFileSync(file, "utf8").split("\n").slice(-30).join("\n");

async function startApp(tmp: string, label: string, env: Record<string, string>): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(tmp, `${label}-server.log`);
  const childEnv: Record<string, string | undefined> = { ...process.env };
  for (const name of APP_VARIABLES) delete childEnv[name];
  Object.assign(childEnv, {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    SESSION_SECRET: randomBytes(24).toString("hex"),
    LOG_LEVEL: "info",
    APP_STAGE: "test",
    ...env,
  });
  const fd = openSync(logFile, "a");
  const t0 = performance.now();
  const child = spawn(process.execPath, ["server.ts"], { cwd: ROOT, env: childEnv, stdio: ["ignore", fd, fd] });
  closeSync(fd);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = () => stopChild(child, exited);
  const unregister = onCleanup(`${label} server (pid ${child.pid})`, stop);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the ${label} server exited (${child.exitCode ?? child.signalCode}) before /healthz answered; its log:\n${logTail(logFile)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(3_000) });
      await response.body?.cancel();
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the ${label} server did not become healthy in 120 s; its log:\n${logTail(logFile)}`);
    await sleep(100);
  }
  return {
    label,
    baseUrl,
    logFile,
    startMs: Math.round(performance.now() - t0),
    logs: () => readLog(logFile),
    stop: async () => {
      await stop();
      unregister();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP helpers

class CookieJar {
  private cookies = new Map<string, string>();
  store(setCookies: string[]) {
    for (const header of setCookies) {
      const [pair = "", ...attributes] = header.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\b/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(index + 1));
    }
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

type Reply = { status: number; location: string | null; body: string; ms: number };

/** One browser-like request through fetch, never following redirects; `ms` is measured around fetch and the body. */
async function request(baseUrl: string, pathAndQuery: string, options: { jar?: CookieJar; form?: Record<string, string> } = {}): Promise<Reply> {
  if (interrupted) throw new Error("interrupted");
  const headers: Record<string, string> = { ...BASE_HEADERS, "Accept-Encoding": BROWSER_ENCODINGS };
  const cookie = options.jar?.header();
  if (cookie) headers.Cookie = cookie;
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers.Origin = baseUrl;
  }
  const t0 = performance.now();
  const response = await fetch(baseUrl + pathAndQuery, { method: options.form ? "POST" : "GET", headers, body, redirect: "manual" });
  const text = await response.text();
  const ms = performance.now() - t0;
  options.jar?.store(response.headers.getSetCookie());
  return { status: response.status, location: response.headers.get("location"), body: text, ms };
}

type RawReply = { status: number; headers: http.IncomingHttpHeaders; wire: Buffer; decoded: Buffer };

/** GET with node:http: the body bytes exactly as transferred (no transparent decompression), and decoded. */
function rawGet(url: string, headers: Record<string, string>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        try {
          const decoded =
            encoding === "gzip" ? zlib.gunzipSync(wire) : encoding === "br" ? zlib.brotliDecompressSync(wire) : encoding === "deflate" ? zlib.inflateSync(wire) : wire;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, decoded });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.on("error", reject);
  });
}

const gzip9 = (data: Buffer | string) => zlib.gzipSync(data, { level: 9 }).length;

// ---------------------------------------------------------------------------------------------------------------
// Statistics and formatting

type Stats = { n: number; p50: number; p95: number; mean: number; min: number; max: number };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    mean: round(sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const bytes = (n: number) => `${int(n)} B`;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 2 : 1)} ms` : "—");

// ---------------------------------------------------------------------------------------------------------------
// 1. Size budgets

type Asset = { url: string; via: string; rawBytes: number; transferredBytes: number; contentEncoding: string; gzip9Bytes: number };

const STATIC_IMPORT = /(?:\bfrom\s*|\bimport\s*)["']([^"'`\s]+\.m?js)["']/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`\s]+\.m?js)["'`]\s*\)/g;

function specifiers(code: string, pattern: RegExp, base: string, origin: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(pattern)) {
    const url = new URL(match[1]!, base);
    if (url.origin === origin) found.add(url.pathname);
  }
  return [...found];
}

function attribute(tag: string, name: string): string | null {
  return tag.match(new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, "i"))?.[1] ?? tag.match(new RegExp(`\\b${name}\\s*=\\s*'([^']*)'`, "i"))?.[1] ?? null;
}

async function measureAsset(baseUrl: string, pathname: string, via: string): Promise<Asset & { code: string }> {
  const reply = await rawGet(baseUrl + pathname, { "User-Agent": BROWSER_USER_AGENT, Accept: "*/*", "Accept-Encoding": "gzip" });
  if (reply.status !== 200) throw new Error(`GET ${pathname} answered ${reply.status}`);
  return {
    url: pathname,
    via,
    rawBytes: reply.decoded.length,
    transferredBytes: reply.wire.length,
    contentEncoding: String(reply.headers["content-encoding"] ?? "identity"),
    gzip9Bytes: gzip9(reply.decoded),
    code: reply.decoded.toString("utf8"),
  };
}

async function browserFirstLoad(baseUrl: string): Promise<{ scripts: string[]; requests: number; ms: number } | { skipped: string }> {
  if (!USE_BROWSER) return { skipped: "BENCH_BROWSER=0" };
  let playwright: typeof import("@playwright/test");
  try {
    playwright = await import("@playwright/test");
  } catch (error) {
    return { skipped: `@playwright/test unavailable: ${error instanceof Error ? error.message : String(error)}` };
  }
  const t0 = performance.now();
  let browser: Awaited<ReturnType<typeof playwright.chromium.launch>>;
  try {
    browser = await playwright.chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  } catch (error) {
    return { skipped: `Chromium did not start: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
  }
  const unregister = onCleanup("Chromium", () => browser.close());
  try {
    const context = await browser.newContext({ userAgent: BROWSER_USER_AGENT, locale: "en-US", extraHTTPHeaders: { "Accept-Language": "en" } });
    const page = await context.newPage();
    const scripts = new Set<string>();
    let requests = 0;
    page.on("request", (req) => {
      requests++;
      const url = new URL(req.url());
      if (req.resourceType() === "script" && url.origin === baseUrl) scripts.add(url.pathname);
    });
    await page.goto(`${baseUrl}/`, { waitUntil: "networkidle", timeout: 30_000 });
    // Hydration done: the i18n resources of the page are loaded before it starts.
    await page.waitForTimeout(300);
    return { scripts: [...scripts], requests, ms: Math.round(performance.now() - t0) };
  } finally {
    await browser.close();
    unregister();
  }
}

async function sizeBudgets(baseUrl: string) {
  const page = await rawGet(`${baseUrl}/`, { ...BASE_HEADERS, "Accept-Encoding": "gzip" });
  if (page.status !== 200) throw new Error(`GET / answered ${page.status} (Location: ${page.headers.location ?? "-"}), expected 200`);
  const html = page.decoded.toString("utf8");
  const htmlSize = {
    rawBytes: page.decoded.length,
    transferredBytes: page.wire.length,
    contentEncoding: String(page.headers["content-encoding"] ?? "identity"),
    gzip9Bytes: gzip9(page.decoded),
  };

  const origin = new URL(baseUrl).origin;
  const roots = new Map<string, string>();
  const inlineModules: string[] = [];
  let otherInlineScripts = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? "";
    const type = attribute(attributes, "type");
    const src = attribute(attributes, "src");
    if (src && type === "module") roots.set(new URL(src, baseUrl + "/").pathname, "<script type=module src>");
    else if (src) roots.set(new URL(src, baseUrl + "/").pathname, "<script src>");
    else if (type === "module") inlineModules.push(match[2] ?? "");
    else otherInlineScripts += Buffer.byteLength(match[2] ?? "");
  }
  for (const match of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(match[0], "rel");
    const href = attribute(match[0], "href");
    if (rel === "modulepreload" && href && !roots.has(new URL(href, baseUrl + "/").pathname)) roots.set(new URL(href, baseUrl + "/").pathname, "modulepreload");
  }
  const stylesheets = [...html.matchAll(/<link\b[^>]*>/gi)]
    .filter((m) => attribute(m[0], "rel") === "stylesheet" && attribute(m[0], "href"))
    .map((m) => new URL(attribute(m[0], "href")!, baseUrl + "/").pathname);
  for (const code of inlineModules) {
    // The inline module imports the route modules and, unconditionally, the client entry.
    for (const url of specifiers(code, STATIC_IMPORT, baseUrl + "/", origin)) if (!roots.has(url)) roots.set(url, "inline module import");
    for (const url of specifiers(code, DYNAMIC_IMPORT, baseUrl + "/", origin)) if (!roots.has(url)) roots.set(url, "inline module import()");
  }

  // The static import graph from there: anything not preloaded is still downloaded before the app runs.
  const assets: Asset[] = [];
  const lazy = new Set<string>();
  const queue = [...roots];
  const seen = new Set(roots.keys());
  while (queue.length > 0) {
    const [url, via] = queue.shift()!;
    const { code, ...asset } = await measureAsset(baseUrl, url, via);
    assets.push(asset);
    for (const next of specifiers(code, STATIC_IMPORT, baseUrl + url, origin)) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([next, `static import (not preloaded) from ${url}`]);
    }
    for (const next of specifiers(code, DYNAMIC_IMPORT, baseUrl + url, origin)) lazy.add(next);
  }
  for (const url of seen) lazy.delete(url);
  const inline = inlineModules.map((code) => ({ rawBytes: Buffer.byteLength(code), gzip9Bytes: gzip9(code) }));
  const sum = (items: { transferredBytes?: number; gzip9Bytes: number; rawBytes: number }[], key: "transferredBytes" | "gzip9Bytes" | "rawBytes") =>
    items.reduce((total, item) => total + (item[key] ?? 0), 0);
  const inlineRaw = inline.reduce((t, i) => t + i.rawBytes, 0);
  const inlineGzip9 = inline.reduce((t, i) => t + i.gzip9Bytes, 0);

  const css = await Promise.all(stylesheets.map(async (url) => {
    const { code: _code, ...asset } = await measureAsset(baseUrl, url, "<link rel=stylesheet>");
    return asset;
  }));

  const lazyAssets: Asset[] = [];
  for (const url of [...lazy].sort()) {
    const { code: _code, ...asset } = await measureAsset(baseUrl, url, "dynamic import()");
    lazyAssets.push(asset);
  }

  // A real browser as a cross-check: which scripts does it actually fetch until the network is idle?
  const browser = await browserFirstLoad(baseUrl);
  let browserCheck: Record<string, unknown>;
  if ("skipped" in browser) {
    browserCheck = { skipped: browser.skipped };
  } else {
    const extra: Asset[] = [];
    for (const url of browser.scripts.filter((u) => !seen.has(u))) {
      const known = lazyAssets.find((a) => a.url === url);
      if (known) extra.push({ ...known, via: "dynamic import() run at start-up" });
      else {
        const { code: _code, ...asset } = await measureAsset(baseUrl, url, "fetched by the browser");
        extra.push(asset);
      }
    }
    const observed = assets.filter((a) => browser.scripts.includes(a.url)).concat(extra);
    browserCheck = {
      scripts: browser.scripts.length,
      requests: browser.requests,
      transferredBytes: sum(observed, "transferredBytes"),
      gzip9Bytes: sum(observed, "gzip9Bytes"),
      rawBytes: sum(observed, "rawBytes"),
      notInHtmlParse: extra,
      parsedButNotFetched: assets.filter((a) => !browser.scripts.includes(a.url)).map((a) => a.url),
      ms: browser.ms,
    };
  }

  return {
    method:
      "each response requested with Accept-Encoding: gzip through node:http; transferred = body bytes on the wire as the server " +
      "sent them (compression middleware, zlib default level 6, bodies under 1 KiB uncompressed), headers not counted; " +
      "gzip -9 = the decoded body compressed here with zlib level 9",
    html: htmlSize,
    js: {
      files: assets,
      inlineModuleScripts: inline,
      /** Part of the HTML bytes too; counted in the JS total as the brief asks. */
      totals: {
        files: assets.length,
        rawBytes: sum(assets, "rawBytes") + inlineRaw,
        transferredBytes: sum(assets, "transferredBytes") + inlineGzip9,
        gzip9Bytes: sum(assets, "gzip9Bytes") + inlineGzip9,
      },
      staticImportsNotPreloaded: assets.filter((a) => a.via.startsWith("static import")).map((a) => a.url),
      otherInlineScriptBytes: otherInlineScripts,
    },
    lazyChunks: { count: lazyAssets.length, gzip9Bytes: sum(lazyAssets, "gzip9Bytes"), files: lazyAssets },
    css: { files: css, transferredBytes: sum(css, "transferredBytes"), gzip9Bytes: sum(css, "gzip9Bytes") },
    browserCheck,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Throughput

type AutocannonResult = {
  requests: { average: number; total: number; stddev: number };
  latency: { p50: number; p90: number; p99: number; average: number; max: number };
  throughput: { average: number };
  duration: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
};
type AutocannonOptions = { url: string; connections: number; duration?: number; amount?: number; headers?: Record<string, string> };
const autocannon = createRequire(import.meta.url)("autocannon") as (options: AutocannonOptions) => Promise<AutocannonResult>;

/** A bare node:http server in its own process (as the app runs in its own): one fixed response. */
const BARE_SERVER = `
import http from "node:http";
import { readFileSync } from "node:fs";
const body = readFileSync(process.env.BARE_BODY);
const headers = JSON.parse(readFileSync(process.env.BARE_HEADERS, "utf8"));
const server = http.createServer((req, res) => {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
process.on("SIGTERM", () => process.exit(0));
`;

async function startBareServer(tmp: string, body: Buffer, headers: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const bodyFile = path.join(tmp, "bare-body.html");
  const headersFile = path.join(tmp, "bare-headers.json");
  writeFileSync(bodyFile, body);
  writeFileSync(headersFile, JSON.stringify(headers));
  const child = spawn(process.execPath, ["--input-type=module", "-e", BARE_SERVER], {
    env: { ...process.env, BARE_BODY: bodyFile, BARE_HEADERS: headersFile },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const unregister = onCleanup(`bare server (pid ${child.pid})`, () => stopChild(child, exited));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      out += chunk;
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve(Number(line));
    });
    child.once("exit", (code) => reject(new Error(`bare server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      await stopChild(child, exited);
      unregister();
    },
  };
}

const HOP_BY_HOP = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"]);

function summarise(result: AutocannonResult) {
  return {
    requestsPerSecond: Math.round(result.requests.average),
    totalRequests: result.requests.total,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, mean: Math.round(result.latency.average * 100) / 100, max: result.latency.max },
    throughputBytesPerSecond: Math.round(result.throughput.average),
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    durationS: Math.round(result.duration * 10) / 10,
  };
}

async function throughput(tmp: string, baseUrl: string) {
  // The body the load test gets: a browser's request without Accept-Encoding, so neither server compresses.
  const sample = await rawGet(`${baseUrl}/`, BASE_HEADERS);
  if (sample.status !== 200) throw new Error(`GET / answered ${sample.status}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(sample.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  const options = { connections: RPS_CONNECTIONS, duration: RPS_DURATION_S, headers: { ...BASE_HEADERS } };

  const run = async (url: string) => {
    await autocannon({ url, connections: 10, duration: 2, headers: options.headers }); // warm-up (JIT, caches)
    const t0 = performance.now();
    const result = summarise(await autocannon({ url, ...options }));
    return { ...result, wallS: Math.round((performance.now() - t0) / 100) / 10 };
  };
  progress(`autocannon GET / on the app: ${RPS_CONNECTIONS} connections, ${RPS_DURATION_S} s`);
  const app = await run(`${baseUrl}/`);

  const bare = await startBareServer(tmp, sample.decoded, headers);
  try {
    progress(`autocannon GET / on a bare node:http server with the same ${int(sample.decoded.length)} bytes`);
    const baseline = await run(bare.url);
    return {
      method: `autocannon ${RPS_CONNECTIONS} connections for ${RPS_DURATION_S} s (after a 2 s warm-up with 10), browser User-Agent, no Accept-Encoding (identity bodies); bare server: node:http in its own process answering every request with the app's body and headers`,
      bodyBytes: sample.decoded.length,
      headers: Object.keys(headers),
      app,
      bare: baseline,
      appShareOfBare: Math.round((app.requestsPerSecond / baseline.requestsPerSecond) * 1000) / 1000,
    };
  } finally {
    await bare.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Database-backed pages

const LINK_LOGGED = "sign-in link (no SMTP_URL configured)";

function inputValue(html: string, name: string): string | null {
  const tag = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0];
  return tag ? (attribute(tag, "value") ?? "") : null;
}

/** The real flow: the form page (honeypot fields), the POST, the link from the server log, the confirm POST. */
async function signIn(server: AppServer, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const form = await request(server.baseUrl, "/form", { jar });
  if (form.status !== 200) throw new Error(`GET /form answered ${form.status}`);
  const name = inputValue(form.body, "name__confirm");
  const from = inputValue(form.body, "from__confirm");
  if (name === null || !from) throw new Error("no honeypot fields on /form");
  const posted = await request(server.baseUrl, "/form", { jar, form: { email, name__confirm: name, from__confirm: from } });
  if (posted.status !== 302) throw new Error(`POST /form answered ${posted.status}: ${posted.body.slice(0, 300)}`);
  let link: string | null = null;
  const deadline = Date.now() + 10_000;
  while (!link && Date.now() < deadline) {
    const entry = server.logs().find((e) => e.message === LINK_LOGGED && e.to === email);
    if (entry) link = String(entry.link);
    else await sleep(100);
  }
  if (!link) throw new Error(`no sign-in link for ${email} in the ${server.label} server log:\n${logTail(server.logFile)}`);
  const url = new URL(link);
  const confirmed = await request(server.baseUrl, url.pathname, { jar, form: { token: url.searchParams.get("token") ?? "" } });
  if (confirmed.status !== 302 || !jar.has("__session")) throw new Error(`POST ${url.pathname} answered ${confirmed.status} without a session cookie`);
  // Land on the target page, as a browser does (it shows the toast and sets the study-language cookie).
  if (confirmed.location) await request(server.baseUrl, confirmed.location, { jar });
  return jar;
}

type Series = { client: Stats; server: Stats; serverLogged: number; stoppedEarly: string | null };

/** The server's own times (its request log, start to finish) for the requests of a series. */
function serverTimes(server: AppServer, from: number, method: string, pathname: string): number[] {
  return server
    .logs()
    .slice(from)
    .filter((e) => e.message === "request" && e.method === method && e.path === pathname && typeof e.ms === "number")
    .map((e) => e.ms as number);
}

async function getSeries(server: AppServer, jar: CookieJar, pathAndQuery: string): Promise<Series & { status: string }> {
  for (let i = 0; i < 5; i++) await request(server.baseUrl, pathAndQuery, { jar }); // warm-up
  const from = server.logs().length;
  const times: number[] = [];
  let stoppedEarly: string | null = null;
  let status = "";
  const t0 = performance.now();
  for (let i = 0; i < SAMPLES; i++) {
    const reply = await request(server.baseUrl, pathAndQuery, { jar });
    if (reply.status !== 200) throw new Error(`GET ${pathAndQuery} answered ${reply.status}`);
    times.push(reply.ms);
    if (i === 0) status = (reply.body.match(/role="status"[^>]*>([^<]*)</)?.[1] ?? "").trim();
    if (performance.now() - t0 > SERIES_CAP_MS) {
      stoppedEarly = `time cap of ${SERIES_CAP_MS / 1000} s reached after ${times.length} requests`;
      break;
    }
  }
  await sleep(200);
  const logged = serverTimes(server, from, "GET", new URL(pathAndQuery, server.baseUrl).pathname);
  return { client: stats(times), server: stats(logged), serverLogged: logged.length, stoppedEarly, status };
}

/** Grades the next due term `SAMPLES` times: GET ?reveal=1 gives its id (timed on its own), the POST is the grade. */
async function reviewSeries(server: AppServer, jar: CookieJar): Promise<{ grade: Series; reveal: Series }> {
  const once = async () => {
    const page = await request(server.baseUrl, "/account/review?reveal=1", { jar });
    if (page.status !== 200) throw new Error(`GET /account/review?reveal=1 answered ${page.status}`);
    const termId = inputValue(page.body, "termId");
    if (!termId) return null;
    const graded = await request(server.baseUrl, "/account/review", { jar, form: { termId, grade: "good" } });
    if (graded.status !== 303) throw new Error(`POST /account/review answered ${graded.status}, expected 303: ${graded.body.slice(0, 300)}`);
    return { reveal: page.ms, grade: graded.ms };
  };
  for (let i = 0; i < 3; i++) await once(); // warm-up
  const from = server.logs().length;
  const grade: number[] = [];
  const reveal: number[] = [];
  let stoppedEarly: string | null = null;
  const t0 = performance.now();
  for (let i = 0; i < SAMPLES; i++) {
    const result = await once();
    if (!result) {
      stoppedEarly = `no due term left after ${grade.length} grades`;
      break;
    }
    grade.push(result.grade);
    reveal.push(result.reveal);
    if (performance.now() - t0 > SERIES_CAP_MS) {
      stoppedEarly = `time cap of ${SERIES_CAP_MS / 1000} s reached after ${grade.length} grades`;
      break;
    }
  }
  await sleep(200);
  const postLogged = serverTimes(server, from, "POST", "/account/review");
  const getLogged = serverTimes(server, from, "GET", "/account/review");
  return {
    grade: { client: stats(grade), server: stats(postLogged), serverLogged: postLogged.length, stoppedEarly },
    reveal: { client: stats(reveal), server: stats(getLogged), serverLogged: getLogged.length, stoppedEarly },
  };
}

type SeedSummary = Record<string, unknown> & { insertedTerms: number; insertedExamples: number; dueNow: number; openMs: number; insertMs: number };

async function seed(env: Record<string, string>): Promise<SeedSummary> {
  const childEnv: Record<string, string | undefined> = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.DATA_DIR;
  Object.assign(childEnv, env);
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "seed-terms.ts"), EMAIL, "--count", String(TERMS), "--seed", String(SEED), "--batch", "1000", "--json"], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const unregister = onCleanup(`seed (pid ${child.pid})`, () => stopChild(child, exited, 5_000));
  let out = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => (out += chunk));
  const code = await exited;
  unregister();
  if (code !== 0) throw new Error(`seed-terms exited with ${code}: ${out}`);
  const line = out.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as SeedSummary;
}

async function databaseRun(server: AppServer) {
  progress(`${server.label}: signing in ${EMAIL}`);
  const jar = await signIn(server, EMAIL);
  progress(`${server.label}: GET /account/explore/member × ${SAMPLES}`);
  const exploreDefault = await getSeries(server, jar, "/account/explore/member");
  progress(`${server.label}: GET /account/explore/member?q=word&sort=alphabetical × ${SAMPLES}`);
  const exploreSearch = await getSeries(server, jar, "/account/explore/member?q=word&sort=alphabetical");
  progress(`${server.label}: review: GET ?reveal=1 + POST grade=good × ${SAMPLES}`);
  const review = await reviewSeries(server, jar);
  return { exploreDefault, exploreSearch, reviewGrade: review.grade, reviewReveal: review.reveal };
}

async function pgliteRun(tmp: string, front: (server: AppServer) => Promise<void>) {
  const dataDir = path.join(tmp, "pglite-data");
  progress(`PGlite: seeding ${int(TERMS)} terms into ${dataDir} (server stopped)`);
  const seeded = await seed({ DATA_DIR: dataDir });
  progress("PGlite: starting the app server");
  const server = await startApp(tmp, "pglite", { DATA_DIR: dataDir });
  try {
    await front(server);
    return { seed: seeded, serverStartMs: server.startMs, ...(await databaseRun(server)) };
  } finally {
    await server.stop();
  }
}

async function postgresRun(tmp: string) {
  progress("PostgreSQL: starting a throwaway server");
  const postgres = await startPostgres();
  const unregister = onCleanup("PostgreSQL", () => postgres.stop());
  try {
    const databaseUrl = await postgres.createDatabase("polyglot_bench");
    const version = await postgresVersion(databaseUrl);
    progress(`PostgreSQL ${version}: starting the app server (it applies the migrations)`);
    const server = await startApp(tmp, "postgresql", { DATABASE_URL: databaseUrl, DATA_DIR: path.join(tmp, "unused-data") });
    try {
      progress(`PostgreSQL: seeding ${int(TERMS)} terms`);
      const seeded = await seed({ DATABASE_URL: databaseUrl });
      return { version, seed: seeded, serverStartMs: server.startMs, ...(await databaseRun(server)) };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres.stop();
    unregister();
  }
}

async function postgresVersion(url: string): Promise<string> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ server_version: string }>("show server_version");
    return result.rows[0]?.server_version.split(" ")[0] ?? "?";
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Report

type Sizes = Awaited<ReturnType<typeof sizeBudgets>>;
type Throughput = Awaited<ReturnType<typeof throughput>>;
type DbRun = Awaited<ReturnType<typeof databaseRun>> & { seed: SeedSummary; serverStartMs: number };

function table(rows: string[][], align: ("l" | "r")[]): string {
  const widths = align.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? "").length)));
  return rows.map((row) => "  " + row.map((cell, c) => (align[c] === "r" ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join("   ").trimEnd()).join("\n");
}

function render(results: { machine: Record<string, unknown>; sizes: Sizes; throughput: Throughput; pglite: DbRun; postgresql: DbRun & { version: string }; durationS: number }): string {
  const { sizes, throughput: rps, pglite, postgresql } = results;
  const lines: string[] = [];
  const m = results.machine;
  lines.push(`Polyglot benchmark, ${m.date} — Node ${m.node}, ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, load average (1/5/15 min) at start ${m.loadAverage}, CPUs busy before the start ${m.cpuBusyBeforeStartPercent ?? "?"}%`);
  lines.push(`total time ${results.durationS} s`);
  const busy = m.cpuBusyBeforeStartPercent;
  if (typeof busy === "number" && busy > 25) {
    lines.push(`WARNING: other processes kept the CPUs ${busy}% busy in the second before the start: these numbers are not those of an idle machine`);
  }
  lines.push("");
  lines.push("1. Size budgets — first load of / (browser User-Agent, Accept-Language: en, status 200, no redirect)");
  lines.push(`  ${sizes.method}.`);
  lines.push(
    `  HTML of /: ${bytes(sizes.html.rawBytes)} raw, ${bytes(sizes.html.transferredBytes)} transferred (${sizes.html.contentEncoding}), ${bytes(sizes.html.gzip9Bytes)} gzip -9`,
  );
  lines.push("");
  const jsRows = [["JavaScript", "via", "raw", "transferred", "gzip -9"]];
  for (const a of sizes.js.files) jsRows.push([a.url, a.via, int(a.rawBytes), `${int(a.transferredBytes)}${a.contentEncoding === "gzip" ? "" : ` (${a.contentEncoding})`}`, int(a.gzip9Bytes)]);
  sizes.js.inlineModuleScripts.forEach((s, i) => jsRows.push([`inline <script type=module> #${i + 1} (inside the HTML)`, "HTML", int(s.rawBytes), `${int(s.gzip9Bytes)}*`, int(s.gzip9Bytes)]));
  const t = sizes.js.totals;
  jsRows.push([`TOTAL first-load JS (${t.files} files + inline module)`, "", int(t.rawBytes), int(t.transferredBytes), int(t.gzip9Bytes)]);
  lines.push(table(jsRows, ["l", "l", "r", "r", "r"]));
  lines.push(`  * the inline module travels inside the HTML; its own gzip -9 size is counted. Other inline scripts: ${bytes(sizes.js.otherInlineScriptBytes)} raw (in the HTML, not counted).`);
  lines.push(`  => first-load JS: ${kib(t.transferredBytes)} transferred gzip, ${kib(t.gzip9Bytes)} gzip -9 (${kib(t.rawBytes)} raw)`);
  lines.push(
    `  static imports missing from modulepreload: ${sizes.js.staticImportsNotPreloaded.length === 0 ? "none" : sizes.js.staticImportsNotPreloaded.join(", ")}`,
  );
  lines.push(`  lazy chunks reachable by import() (not counted): ${sizes.lazyChunks.count}, ${kib(sizes.lazyChunks.gzip9Bytes)} gzip -9 together`);
  lines.push(`  CSS (not counted above): ${sizes.css.files.map((f) => `${f.url} ${bytes(f.transferredBytes)} transferred`).join(", ") || "none"}`);
  const check = sizes.browserCheck;
  if ("skipped" in check) {
    lines.push(`  browser cross-check skipped: ${String(check.skipped)}`);
  } else {
    const extra = check.notInHtmlParse as Asset[];
    const missing = check.parsedButNotFetched as string[];
    lines.push(
      `  browser cross-check (Chromium until network idle): ${check.scripts} scripts, ${kib(Number(check.transferredBytes))} transferred gzip, ${kib(Number(check.gzip9Bytes))} gzip -9 (external files only)`,
    );
    lines.push(`    fetched at start-up beyond the HTML parse: ${extra.length === 0 ? "none" : extra.map((a) => `${a.url} (${int(a.transferredBytes)} B, ${a.via})`).join(", ")}`);
    if (missing.length > 0) lines.push(`    listed but not fetched: ${missing.join(", ")}`);
  }
  lines.push("");
  lines.push(`2. Throughput of GET / — ${rps.method}; body ${bytes(rps.bodyBytes)}`);
  const rpsRows = [["server", "req/s", "p50", "p90", "p99", "max", "requests", "non-2xx", "errors"]];
  for (const [name, r] of [["app (node server.ts)", rps.app], ["bare node:http, same bytes", rps.bare]] as const) {
    rpsRows.push([name, int(r.requestsPerSecond), `${r.latencyMs.p50} ms`, `${r.latencyMs.p90} ms`, `${r.latencyMs.p99} ms`, `${r.latencyMs.max} ms`, int(r.totalRequests), String(r.non2xx), String(r.errors + r.timeouts)]);
  }
  lines.push(table(rpsRows, ["l", "r", "r", "r", "r", "r", "r", "r", "r"]));
  lines.push(`  => the app serves ${(rps.appShareOfBare * 100).toFixed(1)}% of the bare server's requests per second`);
  lines.push("");
  lines.push(`3. Database-backed requests — ${int(TERMS)} terms of one learner; ${SAMPLES} sequential requests each after warm-up;`);
  lines.push(`  client = around fetch() until the body is read (redirect: manual, Accept-Encoding: ${BROWSER_ENCODINGS}), server = the app's request log (Express start to finish)`);
  const dbRows = [["request", "database", "n", "client p50", "client p95", "server p50", "server p95"]];
  const series: [string, keyof Awaited<ReturnType<typeof databaseRun>>][] = [
    ["GET /account/explore/member", "exploreDefault"],
    ["GET /account/explore/member?q=word&sort=alphabetical", "exploreSearch"],
    ["POST /account/review grade=good (303)", "reviewGrade"],
    ["GET /account/review?reveal=1 (finds the due term)", "reviewReveal"],
  ];
  for (const [label, key] of series) {
    for (const [db, run] of [["PGlite", pglite], [`PostgreSQL ${postgresql.version}`, postgresql]] as const) {
      const s = run[key];
      dbRows.push([label, db, String(s.client.n), ms(s.client.p50), ms(s.client.p95), ms(s.server.p50), ms(s.server.p95)]);
    }
  }
  lines.push(table(dbRows, ["l", "l", "r", "r", "r", "r", "r"]));
  for (const [db, run] of [["PGlite", pglite], ["PostgreSQL", postgresql]] as const) {
    const notes = (["exploreDefault", "exploreSearch", "reviewGrade"] as const).map((k) => run[k].stoppedEarly).filter(Boolean);
    if (notes.length > 0) lines.push(`  ${db}: ${[...new Set(notes)].join("; ")}`);
  }
  lines.push(`  results shown: default "${pglite.exploreDefault.status}", search "${pglite.exploreSearch.status}" (PGlite); "${postgresql.exploreDefault.status}", "${postgresql.exploreSearch.status}" (PostgreSQL)`);
  for (const [db, run] of [["PGlite", pglite], ["PostgreSQL", postgresql]] as const) {
    const s = run.seed;
    const stages = s.stages as Record<string, number>;
    lines.push(
      `  ${db} seed: ${int(s.insertedTerms)} terms + ${int(s.insertedExamples)} examples in ${(s.insertMs / 1000).toFixed(1)} s (open + migrate ${(s.openMs / 1000).toFixed(1)} s); ` +
        `stages ${Object.entries(stages).map(([k, v]) => `${k} ${int(v)}`).join(", ")}; due ${int(s.dueNow)}; app server healthy after ${(run.serverStartMs / 1000).toFixed(1)} s`,
    );
  }
  return lines.join("\n");
}

/** The share of CPU time not idle over `windowMs`, from /proc/stat; null where there is none. */
async function cpuBusy(windowMs: number): Promise<number | null> {
  const read = () => {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { idle, total: fields.reduce((sum, x) => sum + x, 0) };
  };
  try {
    const before = read();
    await sleep(windowMs);
    const after = read();
    const total = after.total - before.total;
    return total > 0 ? Math.round((1 - (after.idle - before.idle) / total) * 100) : null;
  } catch {
    return null;
  }
}

async function main() {
  const major = Number(process.versions.node.split(".")[0]);
  if (major < 24) throw new Error(`needs Node 24 (type stripping, server.ts), this is ${process.version}: run \`npm run bench\``);
  try {
    readFileSync(path.join(ROOT, "build", "server", "index.js"));
  } catch {
    throw new Error("build/server/index.js is missing: run `npm run build` first");
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-"));
  onCleanup(`temp dir ${tmp}`, () => rmSync(tmp, { recursive: true, force: true }));
  const machine = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? "?",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((x) => x.toFixed(2)).join(" "),
    /** How busy the CPUs were in the second before the bench started (Linux), in %: other work skews every number. */
    cpuBusyBeforeStartPercent: await cpuBusy(1_000),
  };

  let sizes: Sizes | undefined;
  let rps: Throughput | undefined;
  const pglite = await pgliteRun(tmp, async (server) => {
    progress("size budgets of /");
    sizes = await sizeBudgets(server.baseUrl);
    rps = await throughput(tmp, server.baseUrl);
  });
  const postgresql = await postgresRun(tmp);
  if (!sizes || !rps) throw new Error("the front-end measurements did not run");

  machine.loadAverage += ` (at the end ${os.loadavg().map((x) => x.toFixed(2)).join(" ")})`;
  const results = { machine, durationS: Math.round((performance.now() - started) / 100) / 10, sizes, throughput: rps, pglite, postgresql };
  const report = render(results);
  writeFileSync(RESULTS_FILE, JSON.stringify({ ...results, report: report.split("\n") }, null, 2) + "\n");
  console.log(report);
  console.log(`\n(written to ${path.relative(process.cwd(), RESULTS_FILE) || RESULTS_FILE})`);
}

try {
  await main();
} catch (error) {
  if (!interrupted) console.error(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
