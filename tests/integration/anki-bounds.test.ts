/**
 * An Anki package is the uploader's SQL (ADR 089): a collection whose tables are views, virtual tables or generated
 * columns is refused at once with a translated 422, whatever those would compute, and nothing is imported; a note's
 * review history is kept up to its newest MAX_REVIEWS_PER_NOTE, the preview saying how many older reviews were left out.
 * On the production build, in this process.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf } from "../support/app";
import { craftedDeck, longHistoryDeck, recursiveViewDeck, repeatedRowDeck } from "../support/anki-files";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

describe("Anki packages that run their own SQL", () => {
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;

  beforeAll(async () => {
    mail = await startMailSink();
    app = await startApp({ SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
  });

  const learner = (name: string) => signedInBrowser(app, mail, `${name}-${Date.now()}@example.com`);
  const upload = (browser: Browser, bytes: Buffer, name: string) => {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("file", new File([new Uint8Array(bytes)], name, { type: "application/octet-stream" }));
    form.set("pasted", "");
    return browser.request("/account/import", { method: "POST", body: form, headers: { Origin: APP_URL } });
  };
  const draftsAndTerms = async () => {
    const { rows } = await app.db.execute(
      sql`select (select count(*)::int from import_drafts) as drafts, (select count(*)::int from terms) as terms`,
    );
    return rows[0];
  };

  it("refuses views, virtual tables and generated columns at once, with a translated 422, importing nothing", async () => {
    const ivy = await learner("ivy");
    const before = await draftsAndTerms();
    const crafted: [string, Buffer][] = [
      // Fourteen million rows from a package of about 1 KB: seconds of SQLite on the reading thread.
      ["a recursive view", recursiveViewDeck(14_000_000)],
      // One 8 MB row repeated: sorting it spills to SQLite's temporary files.
      ["a view of one large row, repeated", repeatedRowDeck(8, 8)],
      ["a virtual table", craftedDeck("create virtual table notes using fts5(id, mid, flds);")],
      [
        "a generated column",
        craftedDeck(`create table notes (id integer primary key, guid text, mid integer, mod integer, usn integer,
          tags text, flds text generated always as (hex(zeroblob(100000000))), sfld text, csum integer, flags integer,
          data text);`),
      ],
    ];
    for (const [what, bytes] of crafted) {
      const started = performance.now();
      const response = await upload(ivy, bytes, "crafted.apkg");
      const ms = performance.now() - started;
      expect(response.status, what).toBe(422);
      expect(textOf(await response.text()), what).toContain(
        "This package’s collection is not laid out as Anki writes it (its notes, cards or review log are not plain tables)",
      );
      expect(ms, what).toBeLessThan(2_000);
    }
    expect(await draftsAndTerms()).toEqual(before);
  }, 120_000);

  it("keeps a note's newest 1,000 reviews and says in the preview how many older ones were left out", async () => {
    const jo = await learner("jo");
    const uploaded = await upload(jo, longHistoryDeck(1_500), "long.apkg");
    expect(uploaded.status).toBe(303);
    const { html } = await jo.page(uploaded.headers.get("Location")!);
    const preview = textOf(html);
    expect(preview).toContain("1,000 reviews from the package are kept in the review history.");
    expect(preview).toContain("500 older reviews were left out: each note keeps its newest 1,000.");
    const de = textOf((await jo.page(`/de${uploaded.headers.get("Location")!}`)).html);
    expect(de).toContain("500 ältere Wiederholungen wurden weggelassen: Jede Notiz behält ihre neuesten 1.000.");
  }, 60_000);
});
