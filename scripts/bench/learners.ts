/**
 * Many signed-in learners on a fresh production server, for the learner-page bench and the review loop: each learner
 * holds BENCH_LEARNER_TERMS terms (1,000) and ~BENCH_LEARNER_REVIEWS review-log rows (20,000), seeded by
 * scripts/seed-terms.ts. Seeding 20 such learners takes minutes, so the seeded database is kept in
 * node_modules/.cache/polyglot-bench/ (PGlite: the data directory; PostgreSQL: a pg_dump) and reused while the
 * seed script, the migrations, the options and the UTC day are the same (one seed per database is kept);
 * BENCH_SEED_CACHE=0 seeds afresh.
 */
import { spawn, execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { startPgBouncer } from "../support/pgbouncer.ts";
import { findPostgresBin, type PostgresServer } from "../support/postgres.ts";
import { signIn } from "./account-pages.ts";
import { get, startServer, stopChild } from "./public-pages.ts";
import { onCleanup } from "./run.ts";
import type { ChildProcess } from "node:child_process";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CACHE = path.join(ROOT, "node_modules", ".cache", "polyglot-bench");
/** At most 20: the sign-in form allows 20 links an hour per client address, and every learner signs in for real. */
export const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 20);
export const LEARNER_TERMS = Number(process.env.BENCH_LEARNER_TERMS ?? 1_000);
export const LEARNER_REVIEWS = Number(process.env.BENCH_LEARNER_REVIEWS ?? 20_000);
/**
 * Days since the learners last reviewed: what fell due since waits for them (~58 % of their terms, against ~30 % for a
 * learner who reviewed today), so that 20 learners grading as fast as the server lets them do not run out of cards
 * before the review loop's warm-up and runs are over (~11,500 cards among them: 50 s at 230 reviews/s).
 */
export const LEARNER_AWAY_DAYS = 30;
/** Seeded in groups of this many learners; on PostgreSQL the groups run in parallel. */
const GROUP = 5;

/** `pooler`: the same PostgreSQL, the server's requests through PgBouncer in transaction mode (as on a managed host). */
export type Database = "pglite" | "postgresql" | "pooler";
export const DATABASE_NAMES: Record<Database, string> = {
  pglite: "PGlite",
  postgresql: "PostgreSQL",
  pooler: "PostgreSQL through PgBouncer (transaction mode)",
};

export type Learner = {
  email: string;
  cookie: string;
  /** Some of the learner's term ids (from the member list), for the term page and for grades. */
  termIds: string[];
  textId: string;
};

const groups = () => {
  const list: { email: string; learners: number }[] = [];
  for (let start = 0; start < LEARNERS; start += GROUP)
    list.push({ email: `learner.g${start / GROUP + 1}@example.test`, learners: Math.min(GROUP, LEARNERS - start) });
  return list;
};
const emails = () =>
  groups().flatMap((g) => Array.from({ length: g.learners }, (_, i) => g.email.replace("@", `+${i + 1}@`)));

function seedGroup(env: Record<string, string>, group: { email: string; learners: number }, seed: number) {
  const args = ["scripts/seed-terms.ts", group.email, "--learners", String(group.learners)];
  args.push("--count", String(LEARNER_TERMS), "--reviews", String(LEARNER_REVIEWS), "--seed", String(seed), "--json");
  args.push("--away", String(LEARNER_AWAY_DAYS));
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise<void>((resolve, reject) =>
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seed exited with ${code}`)))),
  );
}

/**
 * What the seeded database depends on: a change to any of these seeds afresh. The migrations are among them: what
 * their triggers fill in while the seed writes (a review's days, its language) is what a learner's database holds.
 */
function cacheKey(database: Database): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(path.join(ROOT, "scripts", "seed-terms.ts")));
  hash.update(readFileSync(path.join(ROOT, "drizzle", "meta", "_journal.json")));
  hash.update(
    JSON.stringify([
      database,
      LEARNERS,
      LEARNER_TERMS,
      LEARNER_REVIEWS,
      LEARNER_AWAY_DAYS,
      new Date().toISOString().slice(0, 10),
    ]),
  );
  return `${database}-${hash.digest("hex").slice(0, 16)}`;
}
const useCache = process.env.BENCH_SEED_CACHE !== "0";

/** The cache keeps one seed per database: the others of that database (an older day, seed or migration) go. */
function pruneCache(database: Database, kept: string) {
  for (const name of readdirSync(CACHE))
    if (name.startsWith(`${database}-`) && path.join(CACHE, name) !== kept)
      rmSync(path.join(CACHE, name), { recursive: true, force: true });
}

/** A seeded PGlite data directory at `dataDir` (PGlite is one process per directory: seeded before the server opens it). */
export async function seedPglite(dataDir: string, log: (message: string) => void) {
  const cached = path.join(CACHE, cacheKey("pglite"));
  if (useCache && existsSync(cached)) {
    log(`PGlite: the seeded learners from ${path.relative(ROOT, cached)}`);
    cpSync(cached, dataDir, { recursive: true });
    return;
  }
  log(`PGlite: seeding ${LEARNERS} learners × ${LEARNER_TERMS} terms, ~${LEARNER_REVIEWS} review-log rows each`);
  let seed = 1;
  for (const group of groups()) await seedGroup({ DATA_DIR: dataDir }, group, seed++);
  if (useCache) {
    mkdirSync(CACHE, { recursive: true });
    rmSync(`${cached}.tmp`, { recursive: true, force: true });
    cpSync(dataDir, `${cached}.tmp`, { recursive: true });
    renameSync(`${cached}.tmp`, cached);
    pruneCache("pglite", cached);
  }
}

/** A seeded PostgreSQL database at `url` (restored from the cached dump, or seeded in parallel groups and dumped). */
export async function seedPostgres(url: string, log: (message: string) => void) {
  const run = promisify(execFile);
  const bin = findPostgresBin();
  const dump = path.join(CACHE, `${cacheKey("postgresql")}.dump`);
  if (useCache && existsSync(dump)) {
    log(`PostgreSQL: the seeded learners from ${path.relative(ROOT, dump)}`);
    await run(path.join(bin, "pg_restore"), ["--no-owner", "--dbname", url, dump], { maxBuffer: 1 << 26 });
    return;
  }
  log(`PostgreSQL: seeding ${LEARNERS} learners × ${LEARNER_TERMS} terms, ~${LEARNER_REVIEWS} review-log rows each`);
  const [first, ...rest] = groups();
  // The first group migrates the empty database; the others then run side by side.
  await seedGroup({ DATABASE_URL: url }, first!, 1);
  await Promise.all(rest.map((group, i) => seedGroup({ DATABASE_URL: url }, group, i + 2)));
  if (useCache) {
    mkdirSync(CACHE, { recursive: true });
    await run(path.join(bin, "pg_dump"), ["--format=custom", "--file", `${dump}.tmp`, url], { maxBuffer: 1 << 26 });
    renameSync(`${dump}.tmp`, dump);
    pruneCache("postgresql", dump);
  }
}

/** A form POST; refused (503) while the server still works off an earlier run's load, it waits and sends again. */
export async function postForm(baseUrl: string, pathname: string, cookie: string, form: URLSearchParams) {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(baseUrl + pathname, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: baseUrl, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: form,
    });
    await response.body?.cancel();
    if (response.status !== 503 || attempt === 30) return response;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** A GET as in `get`, sent again after a 503 (see postForm). */
export async function getPatiently(url: string, headers: Record<string, string>) {
  for (let attempt = 1; ; attempt++) {
    const response = await get(url, headers);
    if (response.status !== 503 || attempt === 30) return response;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Saves the review settings of every learner: no daily limit in the way, these modes. */
export async function setModes(baseUrl: string, learners: Learner[], modes: (i: number) => string[]) {
  await Promise.all(
    learners.map(async (learner, i) => {
      const form = new URLSearchParams({ newPerDay: "1000", reviewsPerDay: "10000", timeZone: "UTC" });
      for (const mode of modes(i)) form.append("modes", mode);
      const { status } = await postForm(baseUrl, "/account/settings", learner.cookie, form);
      if (status !== 303 && status !== 302) throw new Error(`saving the settings answered ${status}`);
      // The toast of the save is shown (and cleared) once, as in a browser.
      await getPatiently(`${baseUrl}/account/settings`, { Cookie: learner.cookie });
    }),
  );
}

/** A text of about 400 words for the reader (the seed adds terms only). */
const TEXT = Array.from(
  { length: 40 },
  (_, i) =>
    `On day ${i + 1} the traveller walked through the old market, bought bread and apples, and asked a friendly woman the way to the river.`,
).join(" ");

/** The seeded learners signed in on `baseUrl` (through the real sign-in flow), with ids to visit. */
export async function signInLearners(baseUrl: string, logFile: string): Promise<Learner[]> {
  if (LEARNERS > 20) throw new Error("BENCH_LEARNERS: at most 20 (20 sign-in links an hour per client address)");
  const learners: Learner[] = [];
  for (const email of emails()) {
    const cookie = await signIn(baseUrl, logFile, email);
    // Past the welcome (the seed does not answer it), with a text of their own, each step's toast seen once.
    await postForm(baseUrl, "/account/home", cookie, new URLSearchParams({ intent: "skip" }));
    const created = await postForm(
      baseUrl,
      "/account/texts/new",
      cookie,
      new URLSearchParams({ title: "A day in the city", body: TEXT }),
    );
    const textId = created.headers.get("location")?.match(/\/account\/texts\/([^/?#]+)/)?.[1];
    await get(`${baseUrl}/account/home`, { Cookie: cookie });
    const member = (
      await get(`${baseUrl}/account/explore/member`, { Cookie: cookie, "Accept-Encoding": "identity" })
    ).body.toString();
    const termIds = [...new Set([...member.matchAll(/\/account\/terms\/([0-9a-f-]{36})"/g)].map((m) => m[1]!))];
    if (termIds.length === 0 || !textId) throw new Error(`${email}: no terms or no text to visit`);
    learners.push({ email, cookie, termIds, textId });
  }
  return learners;
}

/** A production server on a seeded database with the learners signed in; `stop` ends it. */
export async function learnerServer(
  database: Database,
  tmp: string,
  postgres: () => Promise<PostgresServer>,
  log: (message: string) => void,
): Promise<{ baseUrl: string; learners: Learner[]; child: ChildProcess; poolerPid?: number }> {
  const env: Record<string, string> = {};
  let poolerPid: number | undefined;
  if (database !== "pglite") {
    const server = await postgres();
    // A database of its own per run: `--db postgresql,pooler` measures both on one server, each on the same seed.
    env.DATABASE_URL = await server.createDatabase(`polyglot_learner_bench_${database}`);
    await seedPostgres(env.DATABASE_URL, log);
    if (database === "pooler") {
      const pooler = await startPgBouncer(server.port);
      onCleanup("PgBouncer", () => pooler.stop());
      poolerPid = pooler.pid;
      env.DATABASE_DIRECT_URL = env.DATABASE_URL;
      env.DATABASE_URL = pooler.pooled(env.DATABASE_URL);
      log(`PostgreSQL: requests through PgBouncer (transaction mode) on port ${pooler.port}`);
    }
  } else {
    env.DATA_DIR = path.join(tmp, "data");
    await seedPglite(env.DATA_DIR, log);
  }
  const profile = process.env.BENCH_CPU_PROF;
  const nodeArgs = profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`] : [];
  const server = await startServer(tmp, env, nodeArgs);
  // Stopped on Ctrl-C too (the bench's clean-up), not only when the measurement ends.
  const unregister = onCleanup(`learner server (pid ${server.child.pid})`, () => stopChild(server.child));
  server.child.once("exit", unregister);
  try {
    log(`${DATABASE_NAMES[database]}: signing in ${LEARNERS} learners`);
    const learners = await signInLearners(server.baseUrl, path.join(tmp, "server.log"));
    return { ...server, learners, poolerPid };
  } catch (error) {
    await stopChild(server.child);
    throw error;
  }
}

const idleMs = new Map<string, number>();
const timedProfile = async (baseUrl: string, learner: Learner) => {
  const t0 = performance.now();
  const response = await get(`${baseUrl}/account/profile`, { Cookie: learner.cookie });
  return response.status === 200 ? performance.now() - t0 : Number.POSITIVE_INFINITY;
};

/**
 * Waits until the server has worked off what an earlier run left in flight (connections closed at the end of a run
 * leave their requests behind): a learner's page answers within 250 ms or three times as fast as when the server was
 * idle (measured on the first call), or 30 s have passed.
 */
export async function settle(baseUrl: string, learner: Learner) {
  if (!idleMs.has(baseUrl)) {
    const times = [];
    for (let i = 0; i < 5; i++) times.push(await timedProfile(baseUrl, learner));
    idleMs.set(baseUrl, Math.min(...times));
  }
  const limit = Math.max(250, 3 * idleMs.get(baseUrl)!);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await timedProfile(baseUrl, learner)) > limit)
    await new Promise((resolve) => setTimeout(resolve, 250));
}
