/**
 * Soak test of the production build (`npm run build` first, then `npm run soak`): 200 connections for 60 s over a mix
 * of public pages, signed-in pages and form posts, against `node server.ts` on a fresh PGlite directory (or on
 * DATABASE_URL when it is set). Prints requests, errors, answers by status class, p99 latency and the server's
 * resident memory after the warm-up and at the end; exits 1 on any error, any answer >= 500 or memory growth over 20 %.
 *
 * Knobs: SOAK_SECONDS (60), SOAK_CONNECTIONS (200), SOAK_WARMUP_SECONDS (30), SOAK_LEARNERS (8).
 * Not part of `npm test`: its figures depend on the machine.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./support/temp.ts";
import { startMailSink, signInLink } from "../tests/support/mail-sink.ts";
import { visitor } from "../tests/support/http-visitor.ts";
import { freePort } from "./support/postgres.ts";
import { BROWSER_USER_AGENT } from "../tests/support/server-process.ts";
import { loadClient } from "./bench/load-client.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const knob = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const SECONDS = knob("SOAK_SECONDS", 60);
const CONNECTIONS = knob("SOAK_CONNECTIONS", 200);
const WARMUP_SECONDS = knob("SOAK_WARMUP_SECONDS", 30);
const LEARNERS = knob("SOAK_LEARNERS", 8);
const MAX_GROWTH = 0.2;

type Request = { method: string; path: string; headers?: Record<string, string>; body?: string };
type Options = {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  headers: Record<string, string>;
  requests: { setupRequest: (request: Request) => Request }[];
};
type Result = {
  requests: { total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  "1xx": number;
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
  statusCodeStats: Record<string, { count: number }>;
};
const autocannon = loadClient<Options, Result>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Resident memory of a process, from /proc (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB$/m);
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

const cleanups: (() => unknown)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}
process.on("SIGINT", () => void cleanUp().finally(() => process.exit(130)));

async function main(): Promise<number> {
  const mail = await startMailSink();
  cleanups.push(() => mail.close());
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = tempDir("soak");
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    APP_STAGE: "test",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseUrl,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    DATA_DIR: dataDir,
    SMTP_URL: mail.url,
    LOG_LEVEL: "warn",
  };
  const database = process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : "PGlite (fresh DATA_DIR)";
  const child = spawn(process.execPath, ["server.ts"], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  const serverErrors: string[] = [];
  child.stderr
    .setEncoding("utf8")
    .on("data", (chunk: string) => serverErrors.push(...chunk.split("\n").filter(Boolean)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  });

  const healthyBy = Date.now() + 90_000;
  for (;;) {
    const status = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null || Date.now() > healthyBy)
      throw new Error(`the server did not become healthy:\n${serverErrors.join("\n")}`);
    await sleep(200);
  }

  console.log(`signing in ${LEARNERS} learners through the mail sink`);
  const learners: { cookie: string; termPath: string }[] = [];
  for (let n = 0; n < LEARNERS; n++) {
    const email = `soak${n}@example.test`;
    const learner = visitor(baseUrl, { timeoutMs: 30_000 });
    const asked = Date.now();
    await learner.requestSignIn(email);
    await learner.confirm(signInLink(await mail.waitFor(email, asked, 30_000)));
    const created = await learner.request("/account/terms/new", {
      form: { text: `Anfang ${n}`, partOfSpeech: "noun", sentence: "Ein Satz." },
    });
    await created.body?.cancel();
    const termPath = created.headers.get("Location");
    if (created.status !== 302 || !termPath) throw new Error(`learner ${n} could not add a term: ${created.status}`);
    learners.push({ cookie: [...learner.jar].map(([name, value]) => `${name}=${value}`).join("; "), termPath });
  }

  // Each connection walks this list in turn; signed-in requests take the next learner's cookie, term posts a new text.
  let turn = 0;
  const nextLearner = () => learners[turn++ % learners.length]!;
  const page = (pagePath: string) => ({
    setupRequest: (request: Request) => ({ ...request, method: "GET", path: pagePath }),
  });
  const signedIn = (pick: (learner: { termPath: string }) => string) => ({
    setupRequest: (request: Request) => {
      const learner = nextLearner();
      return {
        ...request,
        method: "GET",
        path: pick(learner),
        headers: { ...request.headers, cookie: learner.cookie },
      };
    },
  });
  const form = (formPath: string, fields: () => Record<string, string>, withCookie: boolean) => ({
    setupRequest: (request: Request) => ({
      ...request,
      method: "POST",
      path: formPath,
      headers: {
        ...request.headers,
        "content-type": "application/x-www-form-urlencoded",
        origin: baseUrl,
        ...(withCookie ? { cookie: nextLearner().cookie } : {}),
      },
      body: new URLSearchParams(fields()).toString(),
    }),
  });
  let counter = 0;
  const mix = [
    page("/"),
    page("/explore"),
    signedIn(() => "/account/home"),
    page("/de/explore"),
    page("/company/privacy"),
    signedIn((learner) => learner.termPath),
    form("/locale", () => ({ lng: ["de", "fr", "en"][counter++ % 3]!, redirectTo: "/explore" }), false),
    page("/form"),
    signedIn(() => "/account/review"),
    form(
      "/account/terms/new",
      () => ({
        text: `Soak ${process.pid}-${counter++}`,
        partOfSpeech: "noun",
        meaning: "",
        notes: "",
        sentence: "",
        translation: "",
      }),
      true,
    ),
    page("/zh"),
  ];
  let next = 0;
  const run = (duration: number) =>
    autocannon({
      url: baseUrl,
      connections: CONNECTIONS,
      duration,
      timeout: 30,
      headers: { "user-agent": BROWSER_USER_AGENT, accept: "text/html", "accept-encoding": "gzip, br" },
      // One entry that takes the next kind of request in turn, so every kind runs from the start on all connections.
      requests: [{ setupRequest: (request: Request) => mix[next++ % mix.length]!.setupRequest(request) }],
    });

  console.log(`warm-up: ${CONNECTIONS} connections for ${WARMUP_SECONDS} s`);
  const warmup = await run(WARMUP_SECONDS);
  await sleep(2_000);
  const afterWarmup = residentBytes(child.pid!);
  console.log(`soak: ${CONNECTIONS} connections for ${SECONDS} s on ${database}`);
  const peak = { bytes: afterWarmup };
  const sampler = setInterval(() => (peak.bytes = Math.max(peak.bytes, residentBytes(child.pid!))), 1_000);
  const result = await run(SECONDS);
  clearInterval(sampler);
  const atEnd = residentBytes(child.pid!);
  await sleep(5_000);
  const afterIdle = residentBytes(child.pid!);
  const ready = await fetch(`${baseUrl}/readyz`).then(
    (response) => response.status,
    () => 0,
  );

  const growth = atEnd / afterWarmup - 1;
  // autocannon counts timeouts among its errors.
  const errors = result.errors;
  const byClass = {
    "1xx": result["1xx"],
    "2xx": result["2xx"],
    "3xx": result["3xx"],
    "4xx": result["4xx"],
    "5xx": result["5xx"],
  };
  const report = {
    database,
    connections: CONNECTIONS,
    seconds: SECONDS,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.total / SECONDS),
    errors: result.errors,
    timeouts: result.timeouts,
    byClass,
    byStatus: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count])),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    residentMemory: {
      afterWarmup: mib(afterWarmup),
      peak: mib(peak.bytes),
      atEnd: mib(atEnd),
      afterIdle5s: mib(afterIdle),
      growth: `${(growth * 100).toFixed(1)} %`,
    },
    warmupRequests: warmup.requests.total,
    serverErrorLines: serverErrors.filter((line) => line.includes('"level":"error"')).length,
    readyzAfter: ready,
  };
  console.log(JSON.stringify(report, null, 2));

  const failures = [
    errors > 0 ? `${errors} errors or timeouts` : null,
    result["5xx"] > 0 ? `${result["5xx"]} answers >= 500` : null,
    growth > MAX_GROWTH ? `resident memory grew ${(growth * 100).toFixed(1)} % (limit ${MAX_GROWTH * 100} %)` : null,
    ready !== 200 ? `/readyz answered ${ready} afterwards` : null,
  ].filter((failure): failure is string => failure !== null);
  if (serverErrors.length) console.log(`server error log (first 5):\n${serverErrors.slice(0, 5).join("\n")}`);
  console.log(
    failures.length
      ? `SOAK FAILED: ${failures.join("; ")}`
      : "SOAK PASSED: 0 errors, 0 answers >= 500, memory within 20 %",
  );
  return failures.length ? 1 : 0;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
} finally {
  await cleanUp();
}
process.exit(code);
