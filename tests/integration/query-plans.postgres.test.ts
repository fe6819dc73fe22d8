/**
 * Every statement the learner-facing pages and the review action send to PostgreSQL is planned with an index once the
 * database is large: the statements are captured as the app really sends them (every query of the `pg` driver the
 * production build uses, in this process), while a signed-in learner visits each page and grades; then each one is
 * run through `EXPLAIN` with its own parameters. The database holds ~100,000 terms of 200 learners (and as many
 * review logs), analysed, so the planner prefers an index wherever there is one. The test fails on a sequential scan
 * of a large table, and on a large table read through an index that does not start with the learner's id while the
 * statement filters by it.
 *
 * Needs `npm run build` and the PostgreSQL server of tests/support/pg-global-setup.ts.
 */
import { Client, type QueryResult } from "pg";
// @ts-expect-error pg's own conversion of a parameter to its text form (the one it sends), untyped
import { prepareValue } from "pg/lib/utils.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { APP_URL, signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";

const LEARNERS = 200;
const TERMS_EACH = 500;
/** A table with more rows than this counts as large: a sequential scan of it grows with every learner. */
const LARGE = 10_000;

type Statement = { text: string; values: unknown[] };
const captured = new Map<string, Statement>();
let capturing = false;

// Every statement passes through pg's Client.query (the pool's too): noted while capturing, then sent as it was.
const originalQuery = Client.prototype.query;
const query = (client: Client, text: string) =>
  (originalQuery as unknown as (this: Client, text: string) => Promise<QueryResult>).call(client, text);
Client.prototype.query = function (this: Client, ...args: unknown[]) {
  if (capturing) {
    const [first, second] = args as [string | { text?: string; values?: unknown[] }, unknown];
    const text = typeof first === "string" ? first : first?.text;
    const values = (typeof first === "object" && first?.values) || (Array.isArray(second) ? second : []);
    if (text && !captured.has(text)) captured.set(text, { text, values });
  }
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Filter?: string;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Plans?: PlanNode[];
};

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

describe("query plans of the learner's pages on a large PostgreSQL database", () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let databaseUrl = "";

  beforeAll(async () => {
    databaseUrl = await createDatabase(inject("pgUrl"), `query_plans_${Date.now()}`);
    mail = await startMailSink();
    app = await startApp({ DATABASE_URL: databaseUrl, SMTP_URL: mail.url });
  }, 60_000);
  afterAll(async () => {
    Client.prototype.query = originalQuery;
    await app?.stop();
    await mail?.close();
  });

  it("uses an index led by the learner's id for every statement of home, review, statistics, texts and terms", async () => {
    const learner = await signedInBrowser(app, mail, `plans-${Date.now()}@example.com`);
    // 200 learners with 500 terms and a review each (the learner's among them), written by SQL in seconds: with the
    // app's triggers off (replica role) the columns and aggregates they keep are written here as they would be.
    const seed = new Client({ connectionString: databaseUrl });
    await seed.connect();
    const run = (text: string) => query(seed, text);
    try {
      await run(`set session_replication_role = replica`);
      await run(`
        insert into users (email, created_at)
        select 'other-' || n || '@example.com', now() - interval '90 days' from generate_series(1, ${LEARNERS - 1}) n`);
      await run(`
        insert into terms (user_id, language, text, meaning, part_of_speech, created_at, updated_at, due, stability,
                           difficulty, scheduled_days, reps, state, last_review, created_day, last_review_day, due_day)
        select u.id, 'en', 'word-' || n, 'meaning ' || n, 'noun', c, c, d, 1 + n % 30, 5, n % 30, 1 + n % 5,
               case when n % 10 = 0 then 0 else 2 end, r, c::date, r::date, d::date
        from users u cross join generate_series(1, ${TERMS_EACH}) n
        cross join lateral (select now() - (n % 90) * interval '1 day' as c, now() + ((n % 40) - 10) * interval '1 day'
                            as d, now() - (n % 60) * interval '1 day' as r) t`);
      await run(`
        insert into review_logs (term_id, rating, state, reviewed_at, scheduled_days, user_id, day, due_day)
        select id, 1 + reps % 4, 2, last_review, scheduled_days, user_id, last_review_day, due_day from terms`);
      await run(`
        insert into term_stage_days (term_id, user_id, day, tolearn, learned)
        select id, user_id, created_day, (state = 0)::int, (state <> 0)::int from terms`);
      await run(`
        insert into learner_days (user_id, day, good, new_terms, tolearn, learned)
        select user_id, day, sum(good)::int, sum(added)::int, sum(tolearn)::int, sum(learned)::int from (
          select user_id, day, 1 as good, 0 as added, 0 as tolearn, 0 as learned from review_logs
          union all select user_id, created_day, 0, 1, (state = 0)::int, (state <> 0)::int from terms) x
        group by user_id, day`);
      await run(`set session_replication_role = default`);
      await run(`analyze`);
    } finally {
      await seed.end();
    }
    const { rows: termRows } = await app.db.execute(
      sql`select t.id from terms t join users u on u.id = t.user_id where u.email like 'plans-%' and t.state = 2
          and t.due < now() order by t.due limit 1`,
    );
    const termId = String(termRows[0]!.id);
    const created = await learner.request("/account/texts/new", {
      method: "POST",
      body: (() => {
        const form = new FormData();
        form.append("title", "Plans");
        form.append("body", "The word-1 and word-2 went to the park with word-3.");
        return form;
      })(),
      headers: { Origin: APP_URL },
    });
    expect(created.status).toBe(302);
    const textPath = created.headers.get("Location")!;

    // The index of today's grades is built after start by a background migration (drizzle/0015): wait for it.
    for (let waited = 0; ; waited += 200) {
      const { rows } = await app.db.execute(sql`select done_at from background_migrations`);
      if (rows.every((row) => row.done_at !== null)) break;
      if (waited > 30_000) throw new Error("the background migrations did not finish within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    capturing = true;
    try {
      for (const page of [
        "/account/home",
        "/account/review",
        "/account/review?reveal=1",
        "/account/statistics",
        "/account/texts",
        textPath,
        `/account/terms/${termId}`,
        "/account/explore/member",
      ]) {
        expect((await learner.request(page)).status, page).toBe(200);
      }
      const graded = await learner.request("/account/review", { method: "POST", form: { termId, grade: "good" } });
      expect(graded.status).toBe(303);
    } finally {
      capturing = false;
    }

    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows: sizes } = await query(
        client,
        `select relname, reltuples::bigint as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
         where s.nspname = 'public' and c.relkind = 'r'`,
      );
      const large = new Set(
        sizes.filter((r: { n: string }) => Number(r.n) > LARGE).map((r: { relname: string }) => r.relname),
      );
      expect([...large].sort()).toEqual(expect.arrayContaining(["review_logs", "term_stage_days", "terms"]));

      const problems: string[] = [];
      let planned = 0;
      for (const { text, values } of captured.values()) {
        if (!/^\s*(with|select|insert|update|delete)\b/i.test(text) || /pg_advisory|^\s*select 1\s*$/i.test(text))
          continue;
        // EXPLAIN takes no bound parameters: the values go in as literals, as pg would have sent them.
        const inlined = text.replace(/\$(\d+)\b/g, (_, n: string) => {
          const value = prepareValue(values[Number(n) - 1]);
          return value === null ? "null" : client.escapeLiteral(String(value));
        });
        const result = await query(client, `explain (format json) ${inlined}`);
        const plan = (result.rows[0] as { "QUERY PLAN": [{ Plan: PlanNode }] })["QUERY PLAN"][0].Plan;
        planned++;
        for (const node of nodesOf(plan)) {
          const table = node["Relation Name"];
          if (!table || !large.has(table)) continue;
          const byIndex = `${node["Index Cond"] ?? ""} ${node["Recheck Cond"] ?? ""}`;
          if (node["Node Type"] === "Seq Scan") {
            problems.push(`sequential scan of ${table} in: ${text.replace(/\s+/g, " ").slice(0, 300)}`);
          } else if (
            /\buser_id\b/.test(node.Filter ?? "") &&
            !/\buser_id\b/.test(byIndex) &&
            // Rows looked up by their own key are as few as asked for; the learner's id only confirms the owner.
            !/_pkey$/.test(node["Index Name"] ?? "")
          ) {
            problems.push(
              `${table} read through ${node["Index Name"] ?? node["Node Type"]}, not an index led by user_id, in: ` +
                text.replace(/\s+/g, " ").slice(0, 300),
            );
          }
        }
      }
      expect(planned, "statements planned (the capture works)").toBeGreaterThan(20);
      expect(problems).toEqual([]);
    } finally {
      await client.end();
    }
  }, 110_000);
});
