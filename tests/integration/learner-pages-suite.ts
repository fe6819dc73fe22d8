/**
 * A learner's pages kept in memory between writes (app/edge/learner-pages.server.ts): two production server instances
 * on one PostgreSQL database, as behind a load balancer. A page drawn by React Router carries a
 * per-response CSP nonce; one answered from memory carries script hashes instead, which is how these tests tell the
 * two apart. Whatever the instance that writes, the next page shows the write; a toast, another learner, a signed-out
 * cookie, the moment a term falls due or a change of the public lists never get a kept page.
 *
 * Needs `npm run build` (the test script builds first) and the PostgreSQL server of tests/support/pg-global-setup.ts.
 * learner-pages.test.ts runs it on PostgreSQL itself, learner-pages.pgbouncer.test.ts through PgBouncer.
 */
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { inputValue, toastsIn, visitor, type Visitor } from "../support/http-visitor.ts";

let databaseUrl: string;
let sql: Client;
let a: ServerProcess;
let b: ServerProcess;

async function signIn(server: ServerProcess, email: string): Promise<Visitor> {
  const learner = visitor(server.baseUrl);
  await learner.requestSignIn(email);
  const line = await server.waitForLog(
    (entry) => entry.json?.message === "sign-in link (no SMTP_URL configured)" && entry.json.to === email,
  );
  await learner.confirm(String(line.json!.link));
  // The landing page shows (and clears) the "signed in" toast, as a browser's first page does; then the learner skips
  // My home's welcome, to its dashboard.
  await learner.page("/account/home");
  await learner.request("/account/home", { form: { intent: "skip" } });
  return learner;
}

/** The same browser on another instance (one site behind a load balancer): the same cookies, as they change. */
const onInstance = (learner: Visitor, server: ServerProcess): Visitor => visitor(server.baseUrl, { jar: learner.jar });

/** A copy of a browser's cookies as they are now, sent to an instance: what a stolen or stale cookie does. */
function copiedTo(learner: Visitor, server: ServerProcess): Visitor {
  const other = visitor(server.baseUrl);
  for (const [name, value] of learner.jar) other.jar.set(name, value);
  return other;
}

type Page = { status: number; html: string; headers: Headers; fromMemory: boolean };

async function open(learner: Visitor, path: string): Promise<Page> {
  const { response, html } = await learner.page(path);
  const csp = response.headers.get("content-security-policy") ?? "";
  return { status: response.status, html, headers: response.headers, fromMemory: csp.includes("'sha256-") };
}

/** An answer once it comes from memory (one drawn while its own request wrote, as a first reading does, is drawn again). */
const onceFromMemory = <T extends { fromMemory: boolean }>(answer: () => Promise<T>) =>
  vi.waitFor(
    async () => {
      const answered = await answer();
      expect(answered.fromMemory).toBe(true);
      return answered;
    },
    { timeout: 5_000, interval: 50 },
  );

const kept = (learner: Visitor, path: string) => onceFromMemory(() => open(learner, path));

/**
 * The first answer that shows a change no write announces (a term falling due): read again and again until one does,
 * instead of sleeping past the moment.
 */
const whenChanged = <T>(read: () => Promise<T>, changed: (answer: T) => boolean) =>
  vi.waitFor(
    async () => {
      const answer = await read();
      if (!changed(answer)) throw new Error("not changed yet");
      return answer;
    },
    { timeout: 15_000, interval: 100 },
  );

/**
 * A page's data (`.data`), as client navigation asks for it. Data carries no CSP: one drawn is streamed as React Router
 * writes it, one from memory is sent whole, with its length.
 */
async function openData(learner: Visitor, path: string) {
  const response = await learner.request(path);
  return {
    status: response.status,
    body: await response.text(),
    type: response.headers.get("content-type"),
    cacheControl: response.headers.get("cache-control"),
    csp: response.headers.get("content-security-policy"),
    fromMemory: response.headers.has("content-length"),
  };
}

const keptData = (learner: Visitor, path: string) => onceFromMemory(() => openData(learner, path));

/** The number shown for a stage on the home page. */
const stageCount = (html: string, stage: string) =>
  Number(html.match(new RegExp(`data-stage="${stage}"><strong>(\\d+)</strong>`))?.[1]);

async function addTerm(learner: Visitor, text: string) {
  const response = await learner.request("/account/terms/new", {
    form: { text, meaning: `meaning of ${text}`, partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
  });
  expect(response.status).toBe(302);
  await response.body?.cancel();
}

const versionOf = async (email: string) =>
  Number((await sql.query("select data_version from users where email = $1", [email])).rows[0].data_version);

/**
 * The tests, on two instances whose variables for the database at `databaseUrl` are `envFor(databaseUrl)`; `sql` is a
 * connection to PostgreSQL itself, as an operator's.
 */
export function defineLearnerPagesSuite(
  databaseName: string,
  envFor: (databaseUrl: string) => Record<string, string>,
): void {
  beforeAll(async () => {
    databaseUrl = await createDatabase(inject("pgUrl"), `learner_pages_${process.pid}_${Date.now()}`);
    // One after the other: the first applies the migrations.
    a = await startServer({ env: envFor(databaseUrl) });
    b = await startServer({ env: envFor(databaseUrl) });
    sql = new Client({ connectionString: databaseUrl });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  describe(`on ${databaseName}`, () => {
    learnerPagesKept();
    dataVersionsMoved();
  });
}

/** The stage the reader shows on the first occurrence of a word. */
const wordStage = (html: string, word: string) => html.match(new RegExp(`class="word w-(\\w+)"[^>]*>${word}<`))?.[1];

async function addText(learner: Visitor, title: string, body: string): Promise<string> {
  const response = await learner.request("/account/texts/new", { form: { title, body } });
  expect(response.status).toBe(302);
  await response.body?.cancel();
  return response.headers.get("location")!.split("/").at(-1)!;
}

const idOfTerm = async (email: string, text: string) =>
  String(
    (
      await sql.query("select t.id from terms t join users u on u.id = t.user_id where u.email = $1 and t.text = $2", [
        email,
        text,
      ])
    ).rows[0].id,
  );

const learnerPagesKept = () =>
  describe("a learner's pages kept in memory", () => {
    let alice: Visitor;
    const ids = { term: "", text: "" };

    beforeAll(async () => {
      alice = await signIn(a, "alice.kept@example.test");
      await addTerm(alice, "Apfel");
      ids.text = await addText(alice, "Im Garten", "Der Apfel liegt im Garten. Der Apfel ist rot.");
      ids.term = await idOfTerm("alice.kept@example.test", "Apfel");
      await alice.page("/account/home");
      // The text list counts a new text in the background: kept once it is counted.
      await vi.waitFor(
        async () =>
          expect((await open(alice, "/account/texts")).html).not.toContain("Still counting the words of 1 text"),
        {
          timeout: 5_000,
          interval: 100,
        },
      );
      // The first opening of a text writes (My home's "continue reading"), so a reader drawn then is stale at once and
      // drawn again: opened once here, the reader below is drawn once, then kept.
      await alice.page(`/account/texts/${ids.text}`);
      // A write after the list was counted: every page below is drawn first, then kept.
      await addTerm(alice, "Quitte");
      await alice.page("/account/home");
    });

    for (const path of [
      () => "/account/home",
      () => "/de/account/explore/member?stage=tolearn&sort=newest",
      () => "/account/statistics?days=30",
      () => "/account/settings",
      () => "/account/import",
      () => "/account/export",
      () => "/account/texts",
      () => `/account/texts/${ids.text}?page=1&word=3`,
      () => `/account/terms/${ids.term}`,
      () => "/account/explore/public?language=de&level=beginner",
      () => "/explore",
      () => "/account/billing",
      () => "/account/profile",
      () => "/account/review",
      () => "/account/review?reveal=1",
    ]) {
      it(`${path().replace(/[0-9a-f-]{36}/, ":id")}: drawn once, then answered from memory with the same body and headers but the CSP`, async () => {
        const drawn = await open(alice, path());
        expect(drawn.status).toBe(200);
        expect(drawn.fromMemory).toBe(false);
        const fromMemory = await kept(alice, path());
        expect(fromMemory.html).toBe(drawn.html.replace(/ nonce="[^"]+"/g, ""));
        const policyHeaders = (page: Page) =>
          ["cache-control", "vary", "content-type", "x-frame-options", "referrer-policy", "content-encoding"].map(
            (name) => page.headers.get(name),
          );
        expect(policyHeaders(fromMemory)).toEqual(policyHeaders(drawn));
        expect(fromMemory.headers.get("cache-control")).toBe("private, no-store");
      });
    }

    for (const path of [
      () => "/account/statistics.data?days=30",
      () => `/account/texts/${ids.text}.data?page=1&word=3`,
      () => "/de/account/explore/member.data?stage=tolearn&sort=newest",
    ]) {
      it(`${path().replace(/[0-9a-f-]{36}/, ":id")}: a page's data for client navigation is kept like its document`, async () => {
        const drawn = await openData(alice, path());
        expect(drawn.status).toBe(200);
        expect(drawn.type).toMatch(/^text\/x-script/);
        expect(drawn.fromMemory).toBe(false);
        const fromMemory = await keptData(alice, path());
        expect(fromMemory.body).toBe(drawn.body);
        expect(fromMemory.type).toBe(drawn.type);
        expect(fromMemory.cacheControl).toBe("private, no-store");
        expect([drawn.csp, fromMemory.csp]).toEqual([null, null]);
      });
    }

    it("a page's kept data is drawn again after a write, and never answers its document", async () => {
      const path = "/de/account/explore/member.data?stage=tolearn&sort=newest";
      const before = await keptData(alice, path);
      expect(before.body).not.toContain("Dattel");
      await addTerm(onInstance(alice, b), "Dattel");
      alice.jar.delete("toast"); // the write's toast is another test's subject
      const after = await openData(alice, path);
      expect(after.fromMemory).toBe(false);
      expect(after.body).toContain("Dattel");
      const document = await kept(alice, "/de/account/explore/member?stage=tolearn&sort=newest");
      expect(document.html).toContain("<!DOCTYPE html>");
      expect((await keptData(alice, path)).body).toBe(after.body);
    });

    it("a write on the other instance is shown at once: the data version moved in the database", async () => {
      const before = await kept(alice, "/account/home");
      const version = await versionOf("alice.kept@example.test");
      await addTerm(onInstance(alice, b), "Birne");
      expect(await versionOf("alice.kept@example.test")).toBeGreaterThan(version);
      const after = await open(alice, "/account/home");
      expect(after.fromMemory).toBe(false);
      expect(after.html).toContain("Birne");
      expect(stageCount(after.html, "tolearn")).toBe(stageCount(before.html, "tolearn") + 1);
    });

    it("the statistics and the settings are drawn again after the learner's write", async () => {
      for (const path of ["/account/statistics", "/account/settings"]) await kept(alice, path);
      await addTerm(alice, "Feige");
      await open(alice, "/account/home"); // shows the "term added" toast
      const statistics = await open(alice, "/account/statistics");
      expect(statistics.fromMemory).toBe(false);
      expect((await open(alice, "/account/settings")).fromMemory).toBe(false);
      expect((await kept(alice, "/account/statistics")).html).toBe(statistics.html.replace(/ nonce="[^"]+"/g, ""));
    });

    it("a page with a toast to show is drawn for it, and the toast is not kept", async () => {
      await addTerm(alice, "Kirsche");
      expect(alice.jar.has("toast")).toBe(true);
      const withToast = await open(alice, "/account/home");
      expect(withToast.fromMemory).toBe(false);
      expect(toastsIn(withToast.html)).toHaveLength(1);
      expect(alice.jar.has("toast")).toBe(false);
      const next = await kept(alice, "/account/home");
      expect(toastsIn(next.html)).toEqual([]);
    });

    it("the review is kept until a grade, and apart for each value of the keyboard shortcuts' cookie", async () => {
      const on = await kept(alice, "/account/review");
      const back = await kept(alice, "/account/review?reveal=1");
      const off = await alice.request("/account/review", {
        form: { intent: "shortcuts", shortcuts: "off", revealed: "" },
      });
      expect(off.status).toBe(303);
      await off.body?.cancel();
      expect(alice.jar.has("review-shortcuts")).toBe(true);
      const drawnOff = await open(alice, "/account/review");
      expect(drawnOff.fromMemory).toBe(false);
      const keptOff = await kept(alice, "/account/review");
      expect(keptOff.html).toBe(drawnOff.html.replace(/ nonce="[^"]+"/g, ""));
      expect(keptOff.html).not.toBe(on.html);
      alice.jar.delete("review-shortcuts");
      expect((await kept(alice, "/account/review")).html).toBe(on.html);

      const graded = await alice.request("/account/review", {
        form: { termId: inputValue(back.html, "termId"), version: inputValue(back.html, "version"), grade: "good" },
      });
      expect(graded.status).toBe(303);
      await graded.body?.cancel();
      const next = await open(alice, "/account/review");
      expect(next.fromMemory).toBe(false);
      expect(next.html.replace(/ nonce="[^"]+"/g, "")).not.toBe(on.html); // the next card, and one more reviewed
    });

    it("the profile is kept apart per session, and drawn again when a session begins or ends", async () => {
      const sessionsIn = (html: string) => html.match(/name="sessionId"/g)?.length ?? 0;
      const before = sessionsIn((await kept(alice, "/account/profile")).html);
      // Alice signs in on another device (through the other instance): her profile lists it at once. Her first link was
      // asked for moments ago: the database is told the minute an address waits for its next link has passed.
      await sql.query(
        "update rate_limit_events set created_at = created_at - interval '2 minutes' where key = 'signin:email:alice.kept@example.test'",
      );
      const elsewhere = onInstance(await signIn(b, "alice.kept@example.test"), a);
      const drawn = await open(alice, "/account/profile");
      expect(drawn.fromMemory).toBe(false);
      expect(sessionsIn(drawn.html)).toBe(before + 1);
      const mine = await kept(alice, "/account/profile");
      // The other session never gets the page kept for this one: each marks its own session as "this device".
      const theirs = await open(elsewhere, "/account/profile");
      expect(theirs.fromMemory).toBe(false);
      expect(theirs.html.match(/> \(this device\)</g)).toHaveLength(1);
      expect((await kept(elsewhere, "/account/profile")).html).not.toBe(mine.html);
      expect((await kept(alice, "/account/profile")).html).toBe(mine.html);
      // The other device signs out: one session fewer, at once.
      const out = await elsewhere.request("/logout", { form: {} });
      await out.body?.cancel();
      const after = await open(alice, "/account/profile");
      expect(after.fromMemory).toBe(false);
      expect(sessionsIn(after.html)).toBe(before);
    });

    it("another learner never gets Alice's page, and a signed-out cookie gets the sign-in page", async () => {
      await kept(alice, "/account/home");
      const bob = await signIn(a, "bob.kept@example.test");
      const bobs = await open(bob, "/account/home");
      expect(bobs.html).not.toContain("Apfel");
      expect(bobs.html).toContain("bob.kept@example.test");

      const stale = copiedTo(alice, a);
      const logout = await alice.request("/logout", { form: {} });
      await logout.body?.cancel();
      const afterLogout = await stale.request("/account/home");
      expect(afterLogout.status).toBe(302);
      expect(afterLogout.headers.get("location")).toMatch(/\/form/);
      await afterLogout.body?.cancel();
    });

    it("a page is drawn again when one of its terms falls due, without any write", async () => {
      const carol = await signIn(a, "carol.kept@example.test");
      await addTerm(carol, "Dattel");
      await open(carol, "/account/home"); // shows the "term added" toast
      // Learned long ago and due in two seconds (a direct write: the trigger moves the version once, now).
      await sql.query(
        `update terms set state = 2, stability = 100, scheduled_days = 60, due = now() + interval '2 seconds'
       where text = 'Dattel'`,
      );
      // Written outside the app, it reaches the instances as the database announces it: shortly after.
      const before = await vi.waitFor(async () => {
        const page = await kept(carol, "/account/home");
        expect(stageCount(page.html, "learned")).toBe(1);
        return page;
      });
      const dataBefore = await keptData(carol, "/account/home.data"); // the same page's data, read from it alike
      expect(stageCount(before.html, "needsreview")).toBe(0);
      expect(stageCount(before.html, "learned")).toBe(1);
      // Read until the term is due: before, the page from memory; the first answer after, rendered again.
      const due = await whenChanged(
        () => open(carol, "/account/home"),
        (page) => stageCount(page.html, "needsreview") === 1,
      );
      expect(due.fromMemory).toBe(false);
      expect(stageCount(due.html, "needsreview")).toBe(1);
      const dataDue = await openData(carol, "/account/home.data");
      expect(dataDue.fromMemory).toBe(false);
      expect(dataDue.body).not.toBe(dataBefore.body);
    });

    it("the reader is drawn again when a word on its page falls due, without any write", async () => {
      const dave = await signIn(a, "dave.kept@example.test");
      await addTerm(dave, "Pflaume");
      const text = await addText(dave, "Obst", "Die Pflaume ist reif. Die Pflaume ist blau.");
      await open(dave, "/account/home"); // shows the "text added" toast
      await sql.query(
        `update terms set state = 2, stability = 100, scheduled_days = 60, due = now() + interval '2 seconds'
       where text = 'Pflaume'`,
      );
      const path = `/account/texts/${text}?page=1&word=2`;
      const before = await kept(dave, path);
      expect(wordStage(before.html, "Pflaume")).toBe("learned");
      const due = await whenChanged(
        () => open(dave, path),
        (page) => wordStage(page.html, "Pflaume") === "needsreview",
      );
      expect(due.fromMemory).toBe(false);
      expect(wordStage(due.html, "Pflaume")).toBe("needsreview");
    });

    it("a public list kept for a learner is drawn again when the public lists change, on every instance", async () => {
      const path = "/account/explore/public?language=de&level=beginner";
      const [{ text, meanings }] = (
        await sql.query("select text, meanings from public_terms where language = 'de' and level = 'beginner' limit 1")
      ).rows;
      const erin = await signIn(a, "erin.kept@example.test");
      const onB = onInstance(erin, b);
      await kept(erin, path);
      await kept(onB, path);
      // As a new release loads changed lists: the trigger moves the shared version, each instance reads it.
      const changed = { ...meanings, en: "a meaning from the new release" };
      await sql.query(
        "update public_terms set meanings = $1 where language = 'de' and level = 'beginner' and text = $2",
        [changed, text],
      );
      for (const learner of [erin, onB]) {
        await vi.waitFor(
          async () => {
            const page = await open(learner, path);
            expect(page.html).toContain("a meaning from the new release");
          },
          { timeout: 10_000, interval: 200 },
        );
        expect((await kept(learner, path)).html).toContain("a meaning from the new release");
      }
    }, 30_000);
  });

const dataVersionsMoved = () =>
  describe("the data version follows every write to a learner's data", () => {
    it("every table that holds a learner's rows moves the version through a trigger", async () => {
      const { rows: tables } = await sql.query<{ table_name: string }>(
        `select distinct table_name from information_schema.columns
       where table_schema = 'public' and column_name in ('user_id', 'term_id')`,
      );
      const { rows: triggers } = await sql.query<{ table: string; event: string }>(
        `select event_object_table as table, event_manipulation as event from information_schema.triggers
       where action_statement like '%data_changed%'`,
      );
      // Pledges (the campaign's, kept after an account ends) show on no kept page; the statistics aggregates are written
      // only by the triggers of terms, review logs and known words, which move the version. Sessions move it when they
      // begin or end (the profile lists them), not when "last seen" moves as the learner browses.
      const exempt = new Set([
        "sessions",
        "pledges",
        "learner_days",
        "learner_language_days",
        "term_stage_days",
        "known_days",
      ]);
      expect(triggers.filter((t) => t.table === "sessions").map((t) => t.event)).toEqual(
        expect.arrayContaining(["INSERT", "DELETE"]),
      );
      expect(triggers).not.toContainEqual({ table: "sessions", event: "UPDATE" });
      for (const { table_name: table } of tables.filter((t) => !exempt.has(t.table_name))) {
        for (const event of ["INSERT", "UPDATE", "DELETE"]) {
          expect(triggers, `${event} on ${table}`).toContainEqual({ table, event });
        }
      }
    });

    it("writes to terms, examples, review logs, settings and the learner's own row each move it once", async () => {
      const email = "dave.version@example.test";
      const { rows } = await sql.query("insert into users (email) values ($1) returning id", [email]);
      const userId = rows[0].id as string;
      let version = await versionOf(email);
      const moved = async (statement: string, params: unknown[] = []) => {
        await sql.query(statement, params);
        const next = await versionOf(email);
        expect(next, statement).toBe(version + 1);
        version = next;
      };
      const term = await sql.query(
        `insert into terms (user_id, language, text, meaning, part_of_speech) values ($1, 'en', 'x', 'y', 'noun')
       returning id`,
        [userId],
      );
      expect(await versionOf(email)).toBe(version + 1);
      version++;
      const termId = term.rows[0].id as string;
      await moved("insert into term_examples (term_id, sentence) values ($1, 'An x.')", [termId]);
      await moved(
        "insert into review_logs (term_id, rating, state, reviewed_at, scheduled_days) values ($1, 3, 0, now(), 1)",
        [termId],
      );
      await moved("insert into learner_settings (user_id) values ($1)", [userId]);
      await moved("update learner_settings set new_per_day = 5 where user_id = $1", [userId]);
      await moved("update users set level = 'beginner' where id = $1", [userId]);
      // The same value again changes nothing a page shows.
      await sql.query("update users set level = 'beginner' where id = $1", [userId]);
      expect(await versionOf(email)).toBe(version);
      await moved("delete from terms where id = $1", [termId]);
      await sql.query("delete from users where id = $1", [userId]);
    });
  });
