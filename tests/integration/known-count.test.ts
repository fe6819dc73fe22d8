/**
 * The number learners watch (ADR 105): My home and Statistics say how many words the learner knows in their study
 * language, known words plus learned terms, from the per-day aggregates of known_days (drizzle/0029), which equal a
 * scan of the known words and the terms' stage days. On PGlite, through the production build.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signedInBrowser, startApp, textOf } from "../support/app";
import { startMailSink } from "../support/mail-sink";

let app: Awaited<ReturnType<typeof startApp>>;
let mail: Awaited<ReturnType<typeof startMailSink>>;

beforeAll(async () => {
  mail = await startMailSink();
  app = await startApp({ SMTP_URL: mail.url });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await mail?.close();
});

const wordHref = (html: string, word: string) =>
  html.match(new RegExp(`<a id="w-(\\d+)" href="[^"]*" class="word [^"]*"[^>]*>${word}</a>`))?.[1];

it("counts known words and learned terms in the study language on My home and Statistics, per day", async () => {
  const ida = await signedInBrowser(app, mail, "known.ida@example.com");
  await ida.request("/preferences", {
    method: "POST",
    form: { intent: "studyLanguage", studyLanguage: "de", redirectTo: "/account/home" },
  });
  const home = async () => textOf((await ida.page("/account/home")).html);
  expect(await home()).toContain("You know 0 words in German.");

  const created = await ida.request("/account/texts/new", {
    method: "POST",
    form: { title: "Zählen", body: "Alpha beta gamma delta." },
  });
  const text = created.headers.get("Location")!.split("?")[0]!;
  await ida.request("/account/terms/new", { method: "POST", form: { text: "beta", meaning: "zweiter" } });
  await ida.request(text, { method: "POST", form: { intent: "markKnown", page: "1" } });
  // "beta" is a term: learned by hand, it counts too.
  const page = (await ida.page(text)).html;
  const beta = wordHref(page, "beta")!;
  const { rows } = await app.db.execute(sql`select id from terms where text = 'beta'`);
  const termId = (rows[0] as { id: string }).id;
  const staged = await ida.request(text, {
    method: "POST",
    form: { intent: "stage", termId, stage: "learned", page: "1", word: beta },
  });
  expect(staged.status).toBe(302);

  expect(await home()).toContain("You know 4 words in German. Known words: 3 · learned terms: 1");
  const statistics = textOf((await ida.page("/account/statistics")).html);
  expect(statistics).toContain("You know 4 words in German.");
  expect(statistics).toContain("Words you know in German");
  expect(statistics).toContain("Today: 4 words (3 known, 1 learned); 4 since the first day shown.");

  // Another study language has its own number.
  await ida.request("/preferences", {
    method: "POST",
    form: { intent: "studyLanguage", studyLanguage: "fr", redirectTo: "/account/home" },
  });
  expect(await home()).toContain("You know 0 words in French.");

  // The aggregates equal a scan up to today (UTC, the learner's zone here): known words per language, and the learned
  // days of the terms' stage days.
  const learner = sql`(select id from users where email = 'known.ida@example.com')`;
  const today = sql`(now() at time zone 'UTC')::date`;
  const scanned = await app.db.execute(sql`
    select k.language, k.words, k.learned,
      (select count(*)::int from ignored_words w where w.user_id = ${learner} and w.language = k.language) as scanned_words,
      (select coalesce(sum(s.learned), 0)::int from term_stage_days s join terms t on t.id = s.term_id
        where t.user_id = ${learner} and t.language = k.language and s.day <= ${today}) as scanned_learned
    from (select language, sum(words)::int as words, sum(learned)::int as learned from known_days
      where user_id = ${learner} and day <= ${today} group by language) as k`);
  expect(scanned.rows).toEqual([{ language: "de", words: 3, learned: 1, scanned_words: 3, scanned_learned: 1 }]);
});
