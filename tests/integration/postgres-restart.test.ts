/**
 * PostgreSQL restarted while learners keep using the app (its own server, not the shared one of the test run): the
 * app recovers without a restart, /readyz answers 503 while the database is away and 200 again after while /healthz
 * (liveness) answers 200 throughout, kept public pages still answer 200 from memory, requests that fail meanwhile get a
 * translated 503 page with Retry-After (never a 500), and every write that was answered with success is in the
 * database afterwards, whole (a term together with its example).
 *
 * Needs `npm run build` (the test script builds first) and Debian's PostgreSQL.
 */
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, signInLink } from "../support/mail-sink.ts";
import { startPostgres, type PostgresServer } from "../../scripts/support/postgres.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { visitor, type Visitor } from "../support/http-visitor.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusOf(server: ServerProcess, path: string): Promise<number> {
  try {
    const response = await fetch(`${server.baseUrl}${path}`, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

async function waitForReady(server: ServerProcess, expected: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while ((await statusOf(server, "/readyz")) !== expected) {
    if (Date.now() > deadline) throw new Error(`/readyz did not answer ${expected} within ${timeoutMs} ms`);
    await sleep(100);
  }
}

type Outcome = { text: string; status: number; location: string | null; body: string };

describe("PostgreSQL restarted under load", () => {
  let postgres: PostgresServer | undefined;
  let databaseUrl: string;
  let server: ServerProcess | undefined;
  let mail: Awaited<ReturnType<typeof startMailSink>> | undefined;

  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase("restart_under_load");
    mail = await startMailSink();
    server = await startServer({ env: { DATABASE_URL: databaseUrl, SMTP_URL: mail.url } });
  }, 90_000);

  afterAll(async () => {
    await server?.kill("SIGKILL");
    await mail?.close();
    await postgres?.stop();
  });

  async function signedIn(email: string): Promise<Visitor> {
    const learner = visitor(server!.baseUrl);
    const asked = Date.now();
    expect((await learner.requestSignIn(email)).status).toBe(302);
    expect((await learner.confirm(signInLink(await mail!.waitFor(email, asked)))).headers.get("Location")).toBe(
      "/account/home",
    );
    return learner;
  }

  /** What anonymous visitors get while the database is away. */
  async function duringOutage() {
    const publicPages: Record<string, number> = {};
    for (const path of ["/", "/explore", "/de/explore"]) publicPages[path] = await statusOf(server!, path);
    const response = await fetch(`${server!.baseUrl}/de/form`, {
      method: "POST",
      redirect: "manual",
      headers: {
        Origin: server!.baseUrl,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/x-www-form-urlencoded",
        "User-Agent": "curl/8.5.0",
      },
      body: "email=outage%40example.test",
      signal: AbortSignal.timeout(5_000),
    });
    const signIn = {
      status: response.status,
      retryAfter: response.headers.get("Retry-After"),
      body: await response.text(),
    };
    return { publicPages, signIn };
  }

  it(
    "recovers by itself, answers 503 meanwhile and keeps every accepted write whole",
    { timeout: 120_000 },
    async () => {
      const learners = await Promise.all([1, 2, 3, 4].map((n) => signedIn(`restart${n}@example.test`)));
      const outcomes: Outcome[] = [];
      const pageStatuses: number[] = [];
      const load = { running: true };
      const clients = learners.map(async (learner, n) => {
        for (let i = 0; load.running; i++) {
          const text = `Wort ${n}-${i}`;
          const response = await learner.request("/account/terms/new", {
            form: {
              text,
              meaning: "",
              partOfSpeech: "noun",
              notes: "",
              sentence: `Satz mit ${text}.`,
              translation: "",
            },
          });
          outcomes.push({
            text,
            status: response.status,
            location: response.headers.get("Location"),
            body: await response.text(),
          });
          const page = await learner.request(i % 2 ? "/account/home" : "/explore");
          await page.body?.cancel();
          pageStatuses.push(page.status);
        }
      });

      await sleep(1_000);
      await postgres!.halt();
      await waitForReady(server!, 503, 10_000);
      // Alive all the while: the proxy and the container runtime keep the instance.
      expect(await statusOf(server!, "/healthz")).toBe(200);
      await sleep(1_500);
      const outage = await duringOutage();
      await postgres!.resume();
      await waitForReady(server!, 200, 20_000);
      await sleep(1_500);
      load.running = false;
      await Promise.all(clients);

      const statuses = [...outcomes.map((outcome) => outcome.status), ...pageStatuses];
      expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
      const refused = outcomes.filter((outcome) => outcome.status === 503);
      expect(refused.length, "some writes were tried while the database was away").toBeGreaterThan(0);
      expect(refused[0]?.body).toContain("Service temporarily unavailable");
      expect(refused[0]?.body).toContain("Your last change was not saved.");

      const accepted = outcomes.filter((outcome) => outcome.status === 302);
      expect(accepted.length).toBeGreaterThan(0);
      expect(accepted.every((outcome) => /^\/account\/terms\/[0-9a-f-]{36}$/.test(outcome.location ?? ""))).toBe(true);
      // After the restart the app serves writes again, without being restarted itself.
      expect(outcomes.at(-1)?.status).toBe(302);

      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query<{ id: string; text: string; examples: number }>(
          "select t.id, t.text, (select count(*)::int from term_examples e where e.term_id = t.id) as examples from terms t",
        );
        const stored = new Map(rows.map((row) => [row.id, row]));
        for (const outcome of accepted) {
          const id = outcome.location!.split("/").at(-1)!;
          expect(stored.get(id), `accepted term ${outcome.text}`).toMatchObject({ text: outcome.text, examples: 1 });
        }
        // Nothing half-written: every stored term has its example; refused ones are simply absent.
        expect(rows.filter((row) => row.examples !== 1)).toEqual([]);
        const refusedTexts = new Set(refused.map((outcome) => outcome.text));
        expect(rows.filter((row) => refusedTexts.has(row.text))).toEqual([]);
      } finally {
        await client.end();
      }
      expect(server!.logs().some((line) => line.json?.message === "database connection lost")).toBe(true);

      // Anonymous visitors still got the kept public pages; a sign-in request (from a command-line client too, which
      // counts as a bot) got the translated 503 page with Retry-After.
      expect(outage.publicPages).toEqual({ "/": 200, "/explore": 200, "/de/explore": 200 });
      expect(outage.signIn.status).toBe(503);
      expect(outage.signIn.retryAfter).toBe("10");
      expect(outage.signIn.body).toContain("Dienst vorübergehend nicht verfügbar");
      expect(outage.signIn.body).toContain("<html");
    },
  );
});
