import { spawn } from "node:child_process";
import path from "node:path";
import { startPostgres } from "../support/postgres.ts";
import { type AppServer, logTail, startApp } from "./app-server.ts";
import { CookieJar, request } from "./http.ts";
import { EMAIL, onCleanup, progress, ROOT, SAMPLES, SEED, SERIES_CAP_MS, sleep, stopChild, TERMS } from "./run.ts";
import { attribute } from "./sizes.ts";
import { int, type Stats, stats } from "./stats.ts";

// 3. Database-backed pages

export const LINK_LOGGED = "sign-in link (no SMTP_URL configured)";

export function inputValue(html: string, name: string): string | null {
  const tag = html.match(new RegExp(`<input[^>]*\\bname="${name}"[^>]*>`))?.[0];
  return tag ? (attribute(tag, "value") ?? "") : null;
}

/** The real flow: the form page (honeypot fields), the POST, the link from the server log, the confirm POST. */
export async function signIn(server: AppServer, email: string): Promise<CookieJar> {
  const jar = new CookieJar();
  const form = await request(server.baseUrl, "/form", { jar });
  if (form.status !== 200) throw new Error(`GET /form answered ${form.status}`);
  const name = inputValue(form.body, "name__confirm");
  const from = inputValue(form.body, "from__confirm");
  if (name === null || !from) throw new Error("no honeypot fields on /form");
  const posted = await request(server.baseUrl, "/form", {
    jar,
    form: { email, name__confirm: name, from__confirm: from },
  });
  if (posted.status !== 302) throw new Error(`POST /form answered ${posted.status}: ${posted.body.slice(0, 300)}`);
  let link: string | null = null;
  const deadline = Date.now() + 10_000;
  while (!link && Date.now() < deadline) {
    const entry = server.logs().find((e) => e.message === LINK_LOGGED && e.to === email);
    if (entry) link = String(entry.link);
    else await sleep(100);
  }
  if (!link)
    throw new Error(`no sign-in link for ${email} in the ${server.label} server log:\n${logTail(server.logFile)}`);
  const url = new URL(link);
  const confirmed = await request(server.baseUrl, url.pathname, {
    jar,
    form: { token: url.searchParams.get("token") ?? "" },
  });
  if (confirmed.status !== 302 || !jar.has("__session"))
    throw new Error(`POST ${url.pathname} answered ${confirmed.status} without a session cookie`);
  // Land on the target page, as a browser does (it shows the toast and sets the study-language cookie).
  if (confirmed.location) await request(server.baseUrl, confirmed.location, { jar });
  return jar;
}

export type Series = { client: Stats; server: Stats; serverLogged: number; stoppedEarly: string | null };

/** The server's own times (its request log, start to finish) for the requests of a series. */
export function serverTimes(server: AppServer, from: number, method: string, pathname: string): number[] {
  return server
    .logs()
    .slice(from)
    .filter((e) => e.message === "request" && e.method === method && e.path === pathname && typeof e.ms === "number")
    .map((e) => e.ms as number);
}

/**
 * `drawn`: each request has a query parameter of its own (`drawn=N`, which no page reads), so none is answered from the
 * learner pages kept in memory (app/edge/learner-pages.server.ts): every one is rendered.
 */
export async function getSeries(
  server: AppServer,
  jar: CookieJar,
  pathAndQuery: string,
  { drawn = false }: { drawn?: boolean } = {},
): Promise<Series & { status: string }> {
  const target = (i: number) =>
    drawn ? `${pathAndQuery}${pathAndQuery.includes("?") ? "&" : "?"}drawn=${i}` : pathAndQuery;
  for (let i = 0; i < 5; i++) await request(server.baseUrl, target(-1 - i), { jar }); // warm-up
  const from = server.logs().length;
  const times: number[] = [];
  let stoppedEarly: string | null = null;
  let status = "";
  const t0 = performance.now();
  for (let i = 0; i < SAMPLES; i++) {
    const reply = await request(server.baseUrl, target(i), { jar });
    if (reply.status !== 200) throw new Error(`GET ${target(i)} answered ${reply.status}`);
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
export async function reviewSeries(server: AppServer, jar: CookieJar): Promise<{ grade: Series; reveal: Series }> {
  const once = async () => {
    const page = await request(server.baseUrl, "/account/review?reveal=1", { jar });
    if (page.status !== 200) throw new Error(`GET /account/review?reveal=1 answered ${page.status}`);
    const termId = inputValue(page.body, "termId");
    if (!termId) return null;
    const graded = await request(server.baseUrl, "/account/review", { jar, form: { termId, grade: "good" } });
    if (graded.status !== 303)
      throw new Error(`POST /account/review answered ${graded.status}, expected 303: ${graded.body.slice(0, 300)}`);
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

export type SeedSummary = Record<string, unknown> & {
  insertedTerms: number;
  insertedExamples: number;
  dueNow: number;
  openMs: number;
  insertMs: number;
};

export async function seed(
  env: Record<string, string>,
  { count = TERMS, language = "en", known = 0 }: { count?: number; language?: string; known?: number } = {},
): Promise<SeedSummary> {
  const childEnv: Record<string, string | undefined> = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.DATA_DIR;
  Object.assign(childEnv, env);
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "scripts", "seed-terms.ts"),
      EMAIL,
      "--count",
      String(count),
      "--language",
      language,
      "--seed",
      String(SEED),
      "--batch",
      "1000",
      "--known",
      String(known),
      "--json",
    ],
    {
      cwd: ROOT,
      env: childEnv,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
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

export async function databaseRun(server: AppServer) {
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

export async function pgliteRun(tmp: string, front: (server: AppServer) => Promise<void>) {
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

export async function postgresRun(tmp: string) {
  progress("PostgreSQL: starting a throwaway server");
  const postgres = await startPostgres();
  const unregister = onCleanup("PostgreSQL", () => postgres.stop());
  try {
    const databaseUrl = await postgres.createDatabase("polyglot_bench");
    const version = await postgresVersion(databaseUrl);
    progress(`PostgreSQL ${version}: starting the app server (it applies the migrations)`);
    const server = await startApp(tmp, "postgresql", {
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(tmp, "unused-data"),
    });
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

export async function postgresVersion(url: string): Promise<string> {
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
