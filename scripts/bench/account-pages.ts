/**
 * Account pages of a learner with 1,000 terms under load (PGlite), side by side with bare node:http sending `/`.
 *
 *   node scripts/bench/account-pages.ts      (after `npm run build`; BENCH_CPU_PROF=dir writes a CPU profile there)
 *
 * Budget (issue 8, point 3): /account/home ≥ 0.8 % of bare, /account/explore/member ≥ 0.6 %, p99 ≤ 300 ms, no errors.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { get, load, startServer, stopChild } from "./public-pages.ts";
import { startBareServer } from "./throughput.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const EMAIL = "bench.account@example.test";
const TERMS = Number(process.env.BENCH_ACCOUNT_TERMS ?? 1_000);
export const ACCOUNT_BUDGET: Record<string, number> = { "/account/home": 0.008, "/account/explore/member": 0.006 };
const P99_MS = 300;

function seed(dataDir: string): Promise<void> {
  const child = spawn(
    process.execPath,
    ["scripts/seed-terms.ts", EMAIL, "--count", String(TERMS), "--seed", "20261122", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
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
async function signIn(baseUrl: string, logFile: string): Promise<string> {
  const jar = new Map<string, string>();
  const html = (await get(`${baseUrl}/form`, { "Accept-Encoding": "identity" })).body.toString();
  const from = html.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
  await post(baseUrl, "/form", { email: EMAIL, name__confirm: "", from__confirm: from }, jar);
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    link = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.includes("sign-in link") && line.includes(EMAIL))
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

export async function accountPagesBench() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "polyglot-bench-account-"));
  const children: ChildProcess[] = [];
  try {
    await seed(path.join(tmp, "data"));
    const profile = process.env.BENCH_CPU_PROF;
    const server = await startServer(tmp, {}, profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`] : []);
    children.push(server.child);
    const cookie = await signIn(server.baseUrl, path.join(tmp, "server.log"));
    const sample = await get(`${server.baseUrl}/`);
    const bare = await startBareServer(tmp, sample.body, {
      "content-type": "text/html; charset=utf-8",
      "content-encoding": String(sample.headers["content-encoding"] ?? "identity"),
    });
    const bareResult = await load(bare.url).finally(bare.stop);
    const rows = [];
    for (const page of Object.keys(ACCOUNT_BUDGET)) {
      const check = await get(server.baseUrl + page, { Cookie: cookie });
      if (check.status !== 200) throw new Error(`${page} answered ${check.status}`);
      const result = await load(server.baseUrl + page, { Cookie: cookie });
      const share = result.rps / bareResult.rps;
      rows.push({
        page,
        ...result,
        share,
        ok: share >= ACCOUNT_BUDGET[page]! && result.p99 <= P99_MS && result.errors === 0,
      });
    }
    return { bare: bareResult, rows };
  } finally {
    await Promise.all(children.map(stopChild));
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const result = await accountPagesBench();
  console.log(
    `Account pages, ${TERMS} terms, PGlite; bare node:http ${result.bare.rps} req/s (p99 ${result.bare.p99} ms)`,
  );
  console.log("| page | req/s | share of bare | p99 | errors | budget |\n|---|---:|---:|---:|---:|---|");
  for (const row of result.rows) {
    console.log(
      `| ${row.page} | ${row.rps} | ${(row.share * 100).toFixed(2)} % | ${row.p99} ms | ${row.errors} | ≥ ${ACCOUNT_BUDGET[row.page]! * 100} %, p99 ≤ ${P99_MS} ms: ${row.ok ? "met" : "MISSED"} |`,
    );
  }
  if (result.rows.some((row) => !row.ok)) process.exitCode = 1;
}
