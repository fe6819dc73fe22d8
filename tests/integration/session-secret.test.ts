/**
 * Outside production, without SESSION_SECRET, a restart keeps learners signed in: the first start creates
 * DATA_DIR/.session-secret (mode 0600) and says so, later starts read it. With DATABASE_URL and no data directory the
 * server falls back to a random secret per process and says that too (it makes no folder for it). `npm start` reads a .env file.
 *
 * Needs `npm run build` (the test script builds first) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startMailSink, signInLink } from "../support/mail-sink.ts";
import { createDatabase } from "../../scripts/support/postgres.ts";
import {
  BROWSER_USER_AGENT,
  PROJECT_ROOT,
  startServer,
  type LogLine,
  type ServerProcess,
} from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const CREATED =
  "session secret created in the data directory; restarts keep sessions (set SESSION_SECRET in production)";
const READ = "session secret read from the data directory (SESSION_SECRET is not set)";
const said = (server: ServerProcess, message: string) =>
  server.logs().filter((line: LogLine) => line.json?.message === message).length;

function request(
  server: ServerProcess,
  pathname: string,
  init: { cookie?: string; form?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "User-Agent": BROWSER_USER_AGENT, Accept: "text/html" };
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.form)
    Object.assign(headers, { Origin: server.baseUrl, "Content-Type": "application/x-www-form-urlencoded" });
  const body = init.form ? new URLSearchParams(init.form) : undefined;
  return fetch(new URL(pathname, server.baseUrl), {
    method: init.form ? "POST" : "GET",
    headers,
    body,
    redirect: "manual",
  });
}

const sessionCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((header) => header.split(";", 1)[0] ?? "")
    .find((pair) => pair.startsWith("__session="));

describe("the session secret outside production", () => {
  let dataDir: string;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let server: ServerProcess | undefined;
  const start = () =>
    startServer({
      env: { SESSION_SECRET: undefined, APP_STAGE: "development", DATA_DIR: dataDir, SMTP_URL: mail.url },
    });

  beforeAll(async () => {
    dataDir = tempDir("secret");
    mail = await startMailSink();
  });

  afterAll(async () => {
    await server?.stop();
    await mail?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("is created in DATA_DIR with mode 0600 on the first start, which says so once", async () => {
    server = await start();
    const file = path.join(dataDir, ".session-secret");
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    // Lines reach stdout in batches: wait for the one expected, then count (the start's lines come in order).
    await server.waitForLog((line) => line.json?.message === CREATED);
    expect(said(server, CREATED)).toBe(1);
    expect(said(server, READ)).toBe(0);
  }, 90_000);

  it("keeps a learner signed in across a restart", async () => {
    if (!server) throw new Error("the first start failed");
    const email = "restart.learner@example.test";
    const form = await (await request(server, "/form")).text();
    const fromConfirm = form.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
    const started = Date.now();
    expect(
      (await request(server, "/form", { form: { email, name__confirm: "", from__confirm: fromConfirm } })).status,
    ).toBe(302);
    const token = new URL(signInLink(await mail.waitFor(email, started))).searchParams.get("token") ?? "";
    const cookie = sessionCookieOf(await request(server, "/confirm", { form: { token } }));
    expect(cookie).toBeDefined();
    expect((await request(server, "/account/home", { cookie })).status).toBe(200);

    expect(await server.stop()).toBe(0);
    server = await start();
    await server.waitForLog((line) => line.json?.message === READ);
    expect(said(server, READ)).toBe(1);
    expect(said(server, CREATED)).toBe(0);
    const after = await request(server, "/account/home", { cookie });
    expect(after.headers.get("Location")).toBeNull();
    expect(after.status).toBe(200);
    expect(await after.text()).toContain(email);
  }, 90_000);

  it("with DATABASE_URL and no data directory is random for the process, and the server says so", async () => {
    const missing = path.join(dataDir, "not-there");
    const databaseUrl = await createDatabase(inject("pgUrl"), `session_secret_${process.pid}`);
    const other = await startServer({
      env: { SESSION_SECRET: undefined, APP_STAGE: "development", DATABASE_URL: databaseUrl, DATA_DIR: missing },
    });
    try {
      const warning = await other.waitForLog((line) =>
        String(line.json?.message).includes(`DATABASE_URL is used and there is no data directory ${missing}`),
      );
      expect(warning?.json?.level).toBe("warn");
      expect(String(warning?.json?.message)).toContain("set SESSION_SECRET");
      expect(existsSync(missing)).toBe(false);
    } finally {
      await other.stop();
    }
  }, 60_000);

  it("and every other setting can come from a .env file: npm start reads one when it exists", () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toContain("--env-file-if-exists=.env");
    expect(scripts.dev).toContain("--env-file-if-exists=.env");
  });
});
