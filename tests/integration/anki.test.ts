import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { zstdCompressSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf } from "../support/app";
import { legacyStub, openCollection, sharedDeck, unzip, zip } from "../support/anki-files";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;

const uploadDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith("polyglot-upload-"));

describe("Anki packages", () => {
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

  /** A learner with two German terms (one reviewed four times, with two examples) and one French term. */
  async function learnerWithTerms(name: string) {
    const browser = await learner(name);
    const created = await browser.request("/account/terms/new", {
      method: "POST",
      form: {
        text: "Fernweh",
        meaning: "longing for far places",
        partOfSpeech: "noun",
        notes: "German <3 & more",
        sentence: "Ich habe Fernweh.",
        translation: "I long to travel.",
      },
    });
    const termId = created.headers.get("Location")!.split("/").at(-1)!;
    await browser.request(`/account/terms/${termId}`, {
      method: "POST",
      form: { intent: "addExample", sentence: "Fernweh, again.", translation: "" },
    });
    await browser.request("/account/terms/new", {
      method: "POST",
      form: {
        text: "Heimweh",
        meaning: "homesickness",
        partOfSpeech: "noun",
        notes: "",
        sentence: "",
        translation: "",
      },
    });
    for (const grade of ["again", "good", "good", "easy"]) {
      await app.db.execute(sql`update terms set due = now() - interval '1 minute' where id = ${termId}`);
      expect((await browser.request("/account/review", { method: "POST", form: { termId, grade } })).status).toBe(303);
    }
    const { rows } = await app.db.execute(sql`select user_id from terms where id = ${termId}`);
    const userId = String(rows[0]!.user_id);
    await app.db.execute(
      sql`insert into terms (user_id, language, text, meaning, part_of_speech) values (${userId}, 'fr', 'bonjour', 'hello', 'interjection')`,
    );
    return { browser, userId, termId };
  }

  /** Posts a file as the upload form does (multipart); returns the response. */
  async function uploadFile(browser: Awaited<ReturnType<typeof learner>>, bytes: Buffer, name: string, prefix = "") {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("file", new File([new Uint8Array(bytes)], name, { type: "application/octet-stream" }));
    form.set("pasted", "");
    return browser.request(`${prefix}/account/import`, { method: "POST", body: form, headers: { Origin: APP_URL } });
  }
  /** The hidden fields of the preview's confirm form, as a browser submits them. */
  function confirmFields(html: string): Record<string, string> {
    const form = html.match(/<form[^>]*class="actions"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    const fields: Record<string, string> = { intent: "confirm" };
    for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[name!] = value!;
    return fields;
  }
  async function termsOf(userId: string) {
    const { rows } = await app.db.execute(
      sql`select t.language, t.text, t.meaning, t.notes, t.reps, t.state,
        (select string_agg(e.sentence || ' | ' || e.translation, '; ' order by e.created_at, e.id) from term_examples e where e.term_id = t.id) as examples,
        (select count(*)::int from review_logs r where r.term_id = t.id) as reviews
        from terms t where t.user_id = ${userId} order by t.text`,
    );
    return rows;
  }
  const userIdOf = async (browser: Awaited<ReturnType<typeof learner>>) => {
    const created = await browser.request("/account/terms/new", {
      method: "POST",
      form: {
        text: `probe-${Math.random()}`,
        meaning: "",
        partOfSpeech: "noun",
        notes: "",
        sentence: "",
        translation: "",
      },
    });
    const id = created.headers.get("Location")!.split("/").at(-1)!;
    const { rows } = await app.db.execute(sql`delete from terms where id = ${id} returning user_id`);
    return String(rows[0]!.user_id);
  };

  it("exports an Anki package: a deck per study language, the note type's six fields, cards and the review log", async () => {
    const { browser } = await learnerWithTerms("ana");
    const response = await browser.request("/account/export?format=apkg");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/apkg");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="polyglot-\d{4}-\d{2}-\d{2}\.apkg"$/,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect((await browser.request("/account/export?format=apkg&part=reviews")).status).toBe(400);
    const entries = unzip(Buffer.from(await response.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(["collection.anki2", "media"]);
    expect(entries.get("media")!.toString()).toBe("{}");
    const { db, close } = openCollection(entries.get("collection.anki2")!);
    try {
      const col = db.prepare("select ver, models, decks from col").get() as Record<string, string | number>;
      expect(col.ver).toBe(11);
      const models = Object.values(JSON.parse(String(col.models))) as { flds: { name: string }[]; tmpls: unknown[] }[];
      expect(models).toHaveLength(1);
      expect(models[0]!.flds.map((f) => f.name)).toEqual(["Term", "Meaning", "Example", "Notes", "Reading", "Sound"]);
      expect(models[0]!.tmpls).toHaveLength(1);
      const decks = Object.values(JSON.parse(String(col.decks))) as { id: number; name: string }[];
      expect(decks.map((d) => d.name).sort()).toEqual(["Default", "Polyglot::English (en)", "Polyglot::French (fr)"]);
      const notes = db.prepare("select id, flds from notes order by sfld").all() as { id: number; flds: string }[];
      expect(notes.map((n) => n.flds.split("\x1f"))).toEqual([
        [
          "Fernweh",
          "longing for far places",
          "Ich habe Fernweh. | I long to travel.<br>Fernweh, again.",
          "German &lt;3 &amp; more",
          "",
          "",
        ],
        ["Heimweh", "homesickness", "", "", "", ""],
        ["bonjour", "hello", "", "", "", ""],
      ]);
      const cards = db.prepare("select nid, did, type, queue, ivl, reps, data from cards").all() as Record<
        string,
        number | string
      >[];
      expect(cards).toHaveLength(3);
      const fernweh = cards.find((c) => c.nid === notes[0]!.id)!;
      expect(fernweh.type).toBe(2);
      expect(fernweh.queue).toBe(2);
      expect(fernweh.reps).toBe(4);
      expect(Number(fernweh.ivl)).toBeGreaterThan(0);
      expect(Object.keys(JSON.parse(String(fernweh.data)))).toEqual(["s", "d"]);
      const french = cards.find((c) => c.nid === notes[2]!.id)!;
      expect(decks.find((d) => d.id === french.did)!.name).toBe("Polyglot::French (fr)");
      const revlog = db.prepare("select ease, type from revlog order by id").all();
      expect(revlog.map((r) => r.ease)).toEqual([1, 3, 3, 4]);
      expect(revlog[0]!.type).toBe(0);
    } finally {
      close();
    }
    // The export page links the package as a plain download.
    const { html } = await browser.page("/account/export");
    expect(html).toContain('href="/account/export?format=apkg"');
  });

  it("reads its own package back: the same terms, meanings, examples, notes and reviews", async () => {
    const { browser, userId } = await learnerWithTerms("bea");
    const apkg = Buffer.from(await (await browser.request("/account/export?format=apkg")).arrayBuffer());
    const before = uploadDirs();
    const cy = await learner("cy");
    const cyId = await userIdOf(cy);
    const uploaded = await uploadFile(cy, apkg, "polyglot.apkg");
    expect(uploaded.status).toBe(303);
    expect(uploadDirs().filter((dir) => !before.includes(dir))).toEqual([]);
    const previewUrl = uploaded.headers.get("Location")!;
    const { html } = await cy.page(previewUrl);
    const preview = textOf(html);
    expect(preview).toContain("Anki package (.apkg) · polyglot.apkg");
    // Each deck's terms go back into its study language: the summary names no single one.
    expect(preview).toContain("3 terms will be added with their examples, stages and review history.");
    expect(preview).toContain("4 reviews from the package are kept in the review history.");
    // The note type's fields are guessed onto the targets, shown as in a CSV's mapping.
    const selected = [...html.matchAll(/<select id="col\d+"[\s\S]*?<\/select>/g)].map(
      ([select]) => /<option value="(\w+)" selected/.exec(select)?.[1],
    );
    expect(selected).toEqual(["text", "meaning", "example", "notes", "reading", "ignore"]);
    expect((await cy.request("/account/import", { method: "POST", form: confirmFields(html) })).status).toBe(302);
    const original = await termsOf(userId);
    const imported = await termsOf(cyId);
    const strip = (rows: Record<string, unknown>[]) =>
      rows.map(({ language, text, meaning, notes, examples, reviews }) => ({
        language,
        text,
        meaning,
        notes,
        examples,
        reviews,
      }));
    expect(strip(imported)).toEqual(strip(original));
    expect(imported.find((t) => t.text === "Fernweh")).toMatchObject({ reps: 4, state: 2, reviews: 4 });
  });

  for (const layout of ["collection.anki2", "collection.anki21", "collection.anki21b"] as const)
    it(`imports a shared deck written by another tool (${layout}): HTML and media reduced to text, reviews kept`, async () => {
      const entries: [string, Buffer][] =
        layout === "collection.anki2"
          ? [
              ["collection.anki2", sharedDeck(11)],
              ["media", Buffer.from('{"0":"hund.mp3","1":"haus.jpg"}')],
              ["0", Buffer.from("ID3 not really audio")],
            ]
          : layout === "collection.anki21"
            ? [
                ["collection.anki2", legacyStub()],
                ["collection.anki21", sharedDeck(11)],
              ]
            : [
                ["collection.anki2", legacyStub()],
                ["collection.anki21b", zstdCompressSync(sharedDeck(18))],
                ["media", zstdCompressSync(Buffer.alloc(0))],
              ];
      const dee = await learner(`dee-${layout.split(".")[1]}`);
      const deeId = await userIdOf(dee);
      const uploaded = await uploadFile(dee, zip(entries), "German_Animals.apkg");
      expect(uploaded.status).toBe(303);
      const previewUrl = uploaded.headers.get("Location")!;
      const { html } = await dee.page(previewUrl);
      const preview = textOf(html);
      expect(preview).toContain("Column 1 (Front)");
      expect(preview).toContain("Column 3 (Audio)");
      expect(preview).toContain("3 new terms will be added");
      expect(preview).toContain("3 reviews from the package are kept in the review history.");
      expect(preview).not.toContain("Please update");
      expect(html).not.toContain("[sound:");
      expect((await dee.request("/account/import", { method: "POST", form: confirmFields(html) })).status).toBe(302);
      const terms = await termsOf(deeId);
      expect(terms.map(({ text, meaning, reviews }) => ({ text, meaning, reviews }))).toEqual([
        { text: "Katze", meaning: "cat & kitten\npet", reviews: 0 },
        { text: "das Haus", meaning: "the house", reviews: 0 },
        { text: "der Hund", meaning: "the dog\n(animal)", reviews: 3 },
      ]);
      expect(terms.find((t) => t.text === "der Hund")).toMatchObject({ reps: 3, state: 2 });
    });

  it("refuses a zip bomb before unpacking it, with a translated 413", async () => {
    const eve = await learner("eve");
    // Sixty thousand entries: more files than any deck has.
    const many = zip(Array.from({ length: 60_000 }, (_, i): [string, Buffer] => [String(i), Buffer.alloc(0)]));
    const tooMany = await uploadFile(eve, many, "many.apkg", "/de");
    expect(tooMany.status).toBe(413);
    expect(textOf(await tooMany.text())).toContain(
      "Dieses Paket enthält mehr als 50.000 Dateien, mehr als ein Stapel braucht; deshalb wurde es nicht entpackt.",
    );
    // A collection that unpacks to 300 MiB of zeros from a few hundred KB.
    const zeros = zip([["collection.anki2", Buffer.alloc(300 * 1024 * 1024)]]);
    expect(zeros.length).toBeLessThan(1024 * 1024);
    const bomb = await uploadFile(eve, zeros, "bomb.apkg");
    expect(bomb.status).toBe(413);
    expect(textOf(await bomb.text())).toContain("This package would unpack to far more than a deck needs");
    expect(await termsOf(await userIdOf(eve))).toEqual([]);
  }, 60_000);

  it("asks for an export for older Anki versions when a compressed collection cannot be read", async () => {
    const hal = await learner("hal");
    const broken = zip([
      ["collection.anki2", legacyStub()],
      ["collection.anki21b", Buffer.from("not zstd at all")],
    ]);
    const response = await uploadFile(hal, broken, "new.apkg", "/de");
    expect(response.status).toBe(422);
    expect(textOf(await response.text())).toContain(
      "Exportiere den Stapel in Anki noch einmal mit „Ältere Anki-Versionen unterstützen“.",
    );
  });

  it("names what another binary file looks like and never previews its bytes", async () => {
    const fay = await learner("fay");
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const image = await uploadFile(fay, png, "photo.png");
    expect(image.status).toBe(415);
    const imageText = textOf(await image.text());
    expect(imageText).toContain("This file is neither a table nor an Anki package; it looks like this: an image.");
    expect(imageText).toContain(
      "The import reads CSV, TSV and text files, Polyglot JSON exports and Anki packages (.apkg).",
    );
    const xlsx = zip([
      ["[Content_Types].xml", Buffer.from("<Types/>")],
      ["xl/workbook.xml", Buffer.from("<workbook/>")],
    ]);
    const sheet = await uploadFile(fay, xlsx, "terms.xlsx", "/fr");
    expect(sheet.status).toBe(415);
    expect(textOf(await sheet.text())).toContain("un classeur de tableur (Excel ou OpenDocument).");
    const pdf = await uploadFile(fay, Buffer.from("%PDF-1.7\n%\xe2\xe3\n1 0 obj"), "terms.pdf");
    expect(pdf.status).toBe(415);
    expect(textOf(await pdf.text())).toContain("it looks like this: a PDF document.");
    // A text file above the text limit is still refused as before.
    const bigText = await uploadFile(fay, Buffer.alloc(5 * 1024 * 1024 + 10, "a"), "big.csv");
    expect(bigText.status).toBe(413);
  });

  it("streams a package to disk and refuses a body above 100 MiB with 413, leaving no file behind", async () => {
    const gil = await learner("gil");
    const before = uploadDirs();
    const boundary = "----polyglot-test";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.apkg"\r\n` +
        "Content-Type: application/octet-stream\r\n\r\n",
    );
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new Uint8Array(head));
        if (sent >= 101) return controller.close();
        sent++;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const response = await gil.request("/account/import", {
      method: "POST",
      body,
      headers: { Origin: APP_URL, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(textOf(await response.text())).toContain("Anki packages up to 100 MB");
    expect(sent).toBeLessThanOrEqual(101);
    expect(uploadDirs().filter((dir) => !before.includes(dir))).toEqual([]);
  });
});
