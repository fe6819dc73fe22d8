/**
 * Account pages of a learner with 1,000 terms under load, on PGlite and on PostgreSQL (a throwaway server from
 * scripts/support/postgres.ts), each side by side with bare node:http sending `/` in the same run.
 *
 *   node scripts/bench/account-pages.ts      (after `npm run build`; BENCH_CPU_PROF=dir writes CPU profiles there,
 *                                              BENCH_ACCOUNT_DATABASES=pglite or postgresql measures only one)
 *
 * Budget (issue 8, point 3): /account/home ≥ 0.8 % of bare, /account/explore/member ≥ 0.6 %, p99 ≤ 300 ms, no errors.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startPostgres, type PostgresServer } from "../support/postgres.ts";
import { get, load, startServer, stopChild } from "./public-pages.ts";
import { startBareServer } from "./throughput.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EMAIL = "bench.account@example.test";
const TERMS = Number(process.env.BENCH_ACCOUNT_TERMS ?? 1_000);
export const ACCOUNT_BUDGET: Record<string, number> = { "/account/home": 0.008, "/account/explore/member": 0.006 };
export const ACCOUNT_P99_MS = 300;
const DATABASES = (process.env.BENCH_ACCOUNT_DATABASES ?? "pglite,postgresql").split(",") as Database[];
type Database = "pglite" | "postgresql";
export const DATABASE_NAMES: Record<Database, string> = { pglite: "PGlite", postgresql: "PostgreSQL" };

/** The seed script on PGlite (`DATA_DIR`, server stopped) or PostgreSQL (`DATABASE_URL`). */
function seed(database: { DATA_DIR: string } | { DATABASE_URL: string }): Promise<void> {
  const child = spawn(
    process.execPath,
    ["scripts/seed-terms.ts", EMAIL, "--count", String(TERMS), "--seed", "20261122", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", ...database },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`seed exited with ${code}`)))),
  );
}

function cookiesOf(headers: Record<string, string | string[] | undefined>, jar: Map<string, string>) {
  for (const header of [headers["set-cookie"] ?? []].flat()) {
    const [pair = ""] = header.split(";");
    const index = pair.indexOf("=");
    if (/max-age=0/i.test(header)) jar.delete(pair.slice(0, index));
    else jar.set(pair.slice(0, index), pair.slice(index + 1));
  }
}

async function post(baseUrl: string, pathname: string, form: Record<string, string>, jar: Map<string, string>) {
  const response = await fetch(baseUrl + pathname, {
    method: "POST",
    redirect: "manual",
    headers: {
      Origin: baseUrl,
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: [...jar].map(([n, v]) => `${n}=${v}`).join("; "),
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36",
    },
    body: new URLSearchParams(form),
  });
  cookiesOf({ "set-cookie": response.headers.getSetCookie() }, jar);
  return response;
}

/** The real sign-in flow: the form's honeypot fields, the POST, the link from the server log, the confirm POST. */
export async function signIn(baseUrl: string, logFile: string, email = EMAIL): Promise<string> {
  const jar = new Map<string, string>();
  const html = (await get(`${baseUrl}/form`, { "Accept-Encoding": "identity" })).body.toString();
  const from = html.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
  await post(baseUrl, "/form", { email, name__confirm: "", from__confirm: from }, jar);
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    link = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("sign-in link") && line.includes(email))
      .map((line) => JSON.parse(line).link as string)[0];
    if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!link) throw new Error("no sign-in link in the server log");
  const url = new URL(link);
  await post(baseUrl, url.pathname, { token: url.searchParams.get("token")! }, jar);
  if (!jar.has("__session")) throw new Error("sign-in failed");
  const cookie = () => [...jar].map(([n, v]) => `${n}=${v}`).join("; ");
  // Land once, as a browser does: the toast is shown and cleared, the study-language cookie set.
  cookiesOf((await get(`${baseUrl}/account/home`, { Cookie: cookie() })).headers, jar);
  return cookie();
}

export type AccountRow = {
  database: Database;
  page: string;
  rps: number;
  share: number;
  p99: number;
  errors: number;
  ok: boolean;
};

/** One database: a fresh production server on it, a signed-in learner, bare node:http, then each page under load. */
async function measure(database: Database, tmp: string, postgres: () => Promise<PostgresServer>) {
  const children: ChildProcess[] = [];
  try {
    const dataDir = path.join(tmp, "data");
    const databaseEnv: Record<string, string> =
      database === "postgresql"
        ? { DATABASE_URL: await (await postgres()).createDatabase("polyglot_account_bench") }
        : { DATA_DIR: dataDir };
    // PGlite is one process per directory: seeded before the server opens it; PostgreSQL once the server migrated it.
    if (database === "pglite") await seed({ DATA_DIR: dataDir });
    const profile = process.env.BENCH_CPU_PROF;
    const nodeArgs = profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`] : [];
    const server = await startServer(tmp, databaseEnv, nodeArgs);
    children.push(server.child);
    if (database === "postgresql") await seed({ DATABASE_URL: databaseEnv.DATABASE_URL! });
    const cookie = await signIn(server.baseUrl, path.join(tmp, "server.log"));
    const sample = await get(`${server.baseUrl}/`);
    const bare = await startBareServer(tmp, sample.body, {
      "content-type": "text/html; charset=utf-8",
      "content-encoding": String(sample.headers["content-encoding"] ?? "identity"),
    });
    const bareResult = await load(bare.url).finally(bare.stop);
    const rows: AccountRow[] = [];
    for (const page of Object.keys(ACCOUNT_BUDGET)) {
      const check = await get(server.baseUrl + page, { Cookie: cookie });
      if (check.status !== 200) throw new Error(`${page} answered ${check.status} on ${database}`);
      const result = await load(server.baseUrl + page, { Cookie: cookie });
      const share = result.rps / bareResult.rps;
      rows.push({
        database,
        page,
        ...result,
        share,
        ok: share >= ACCOUNT_BUDGET[page]! && result.p99 <= ACCOUNT_P99_MS && result.errors === 0,
      });
    }
    return { bare: bareResult, rows };
  } finally {
    await Promise.all(children.map(stopChild));
  }
}

/** Both databases, one after the other; bare node:http is measured again in each so the shares compare like runs. */
export async function accountPagesBench() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-account-"));
  let postgres: Promise<PostgresServer> | undefined;
  try {
    const runs = [];
    for (const database of DATABASES) {
      const dir = path.join(tmp, database);
      mkdirSync(dir);
      runs.push({ database, ...(await measure(database, dir, () => (postgres ??= startPostgres()))) });
    }
    return runs;
  } finally {
    await (await postgres?.catch(() => null))?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

export function accountPagesTable(runs: Awaited<ReturnType<typeof accountPagesBench>>): string {
  const lines = [
    `| database | page | req/s | share of bare (bare req/s) | p99 | errors | budget (p99 ≤ ${ACCOUNT_P99_MS} ms, 0 errors) |`,
    "|---|---|---:|---:|---:|---:|---|",
  ];
  for (const run of runs) {
    for (const row of run.rows) {
      lines.push(
        `| ${DATABASE_NAMES[row.database]} | ${row.page} | ${row.rps} | ${(row.share * 100).toFixed(2)} % (${run.bare.rps}) | ${row.p99} ms | ${row.errors} | ≥ ${ACCOUNT_BUDGET[row.page]! * 100} %: ${row.ok ? "met" : "MISSED"} |`,
      );
    }
  }
  return lines.join("\n");
}

if (import.meta.main) {
  const runs = await accountPagesBench();
  console.log(`Account pages, ${TERMS} terms, autocannon 50 connections, beside bare node:http in the same run`);
  console.log(accountPagesTable(runs));
  if (runs.some((run) => run.rows.some((row) => !row.ok))) process.exitCode = 1;
}
