import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, signedInLearner, startApp, textOf, uploadPackage } from "../support/app";
import { noteTypeDeck, openCollection, unzip, zip } from "../support/anki-files";
import { startMailSink } from "../support/mail-sink";
import { flac, mp3, ogg, wav } from "../support/sound-files";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** A Core-style Japanese deck: the word's sound, then the sentence's; a note without a sound; media as Anki writes them. */
function coreDeck(sounds: Record<string, Buffer>, map?: Record<string, string>) {
  const collection = noteTypeDeck(
    ["Vocabulary-Kanji", "Vocabulary-Kana", "Vocabulary-English", "Vocabulary-Audio", "Sentence-Audio"],
    [
      ["先週", "せんしゅう", "last week", "[sound:senshuu.mp3]", "[sound:senshuu-s.ogg]"],
      ["猫", "ねこ", "cat", "[sound:neko.wav]", ""],
      ["犬", "いぬ", "dog", "", ""],
    ],
  );
  const names = Object.keys(sounds);
  const media = map ?? Object.fromEntries(names.map((name, i) => [String(i), name]));
  return zip([
    ["collection.anki2", collection],
    ["media", Buffer.from(JSON.stringify(media))],
    ...names.map((name, i): [string, Buffer] => [String(i), sounds[name]!]),
  ]);
}

describe("sounds of Anki decks", () => {
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

  const learner = (name: string) => signedInLearner(app, mail, name);
  const upload = uploadPackage;
  function confirmFields(html: string): Record<string, string> {
    const form = html.match(/<form[^>]*class="actions"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    const fields: Record<string, string> = { intent: "confirm" };
    for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[name!] = value!;
    return fields;
  }
  /** Uploads, previews and confirms a package; returns the preview's text. */
  async function importPackage(browser: Browser, bytes: Buffer) {
    const uploaded = await upload(browser, bytes);
    expect(uploaded.status).toBe(303);
    const { html } = await browser.page(uploaded.headers.get("Location")!);
    expect((await browser.request("/account/import", { method: "POST", form: confirmFields(html) })).status).toBe(302);
    return textOf(html);
  }
  const soundsOf = async (userId: string) =>
    (
      await app.db.execute(sql`select t.text, s.kind, s.hash, s.size, s.name from term_sounds s
        join terms t on t.id = s.term_id where s.user_id = ${userId} order by t.text`)
    ).rows;
  /** What a learner has in the database: terms, draft sounds and term sounds. */
  const holdings = async (userId: string) =>
    (
      await app.db.execute(sql`select
        (select count(*)::int from terms where user_id = ${userId}) as terms,
        (select count(*)::int from import_drafts where user_id = ${userId}) as drafts,
        (select count(*)::int from import_draft_sounds s join import_drafts d on d.id = s.draft_id
          where d.user_id = ${userId}) as draft_sounds,
        (select count(*)::int from term_sounds where user_id = ${userId}) as sounds`)
    ).rows[0];

  const senshuu = mp3(6);
  const senshuuSentence = ogg();
  const neko = wav();

  it("keeps each note's first sound with its term, plays it with ranges and a year's cache, and packs it again", async () => {
    const { browser, id } = await learner("sound-ana");
    const preview = await importPackage(
      browser,
      coreDeck({ "senshuu.mp3": senshuu, "senshuu-s.ogg": senshuuSentence, "neko.wav": neko }),
    );
    expect(preview).toContain("3 new terms will be added");
    expect(preview).toContain("2 sounds are kept with their terms.");
    expect(await soundsOf(id)).toEqual([
      { text: "先週", kind: "mp3", hash: sha256(senshuu), size: senshuu.length, name: "senshuu.mp3" },
      { text: "猫", kind: "wav", hash: sha256(neko), size: neko.length, name: "neko.wav" },
    ]);
    // The draft and its sounds are gone once confirmed.
    expect(await holdings(id)).toEqual({ terms: 3, drafts: 0, draft_sounds: 0, sounds: 2 });
    // The term page plays it; its URL answers ranges.
    const { rows } = await app.db.execute(sql`select id from terms where user_id = ${id} and text = '猫'`);
    const { html } = await browser.page(`/account/terms/${String(rows[0]!.id)}`);
    const src = /<audio[^>]*src="([^"]+)"/.exec(html)?.[1];
    expect(src).toBe(`/account/sounds/${sha256(neko)}`);
    const whole = await browser.request(src!);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("Content-Type")).toBe("audio/wav");
    expect(whole.headers.get("Accept-Ranges")).toBe("bytes");
    expect(whole.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable, no-transform");
    expect(Buffer.from(await whole.arrayBuffer()).equals(neko)).toBe(true);
    const part = await browser.request(src!, { headers: { Range: "bytes=4-11" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("Content-Range")).toBe(`bytes 4-11/${neko.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(neko.subarray(4, 12))).toBe(true);
    const open = await browser.request(src!, { headers: { Range: "bytes=40-" } });
    expect(open.status).toBe(206);
    expect(open.headers.get("Content-Range")).toBe(`bytes 40-${neko.length - 1}/${neko.length}`);
    const past = await browser.request(src!, { headers: { Range: `bytes=${neko.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("Content-Range")).toBe(`bytes */${neko.length}`);
    // Another learner cannot hear it.
    const other = await learner("sound-other");
    expect((await other.browser.request(src!)).status).toBe(404);
    // The review's answer side and the player carry it too.
    await app.db.execute(sql`update terms set due = now() - interval '1 minute' where user_id = ${id}`);
    await app.db.execute(sql`update terms set due = now() + interval '1 day' where user_id = ${id} and text <> '猫'`);
    const front = await browser.page("/account/review");
    expect(front.html).not.toContain("<audio");
    const back = await browser.page("/account/review?reveal=1");
    expect(back.html).toMatch(new RegExp(`<audio[^>]*src="${src}"`));
    expect(back.html).not.toMatch(/<audio[^>]*autoplay/i);

    // JSON says how many it leaves out; the package carries the sounds, named in the Sound field.
    const json = JSON.parse(await (await browser.request("/account/export?format=json")).text());
    expect(json.soundsLeftOut).toBe(2);
    const apkg = Buffer.from(await (await browser.request("/account/export?format=apkg")).arrayBuffer());
    const entries = unzip(apkg);
    const media = JSON.parse(entries.get("media")!.toString()) as Record<string, string>;
    expect(Object.values(media).sort()).toEqual(["neko.wav", "senshuu.mp3"]);
    for (const [entry, name] of Object.entries(media))
      expect(entries.get(entry)!.equals(name === "neko.wav" ? neko : senshuu)).toBe(true);
    const { db, close } = openCollection(entries.get("collection.anki2")!);
    try {
      const notes = db.prepare("select flds from notes").all();
      const sounds = notes.map((note) => String(note.flds).split("\x1f")).map((f) => [f[0], f[5]]);
      expect(sounds.sort()).toEqual([
        ["先週", "[sound:senshuu.mp3]"],
        ["犬", ""],
        ["猫", "[sound:neko.wav]"],
      ]);
    } finally {
      close();
    }

    // Round trip: the package imported by another learner keeps the same sounds.
    const bea = await learner("sound-bea");
    expect(await importPackage(bea.browser, apkg)).toContain("2 sounds are kept with their terms.");
    expect((await soundsOf(bea.id)).map(({ text, hash }) => ({ text, hash }))).toEqual([
      { text: "先週", hash: sha256(senshuu) },
      { text: "猫", hash: sha256(neko) },
    ]);

    // Deleting a term removes its sound; deleting the account removes the rest.
    const kept = await app.db.execute(sql`select id from terms where user_id = ${bea.id} and text = '猫'`);
    await bea.browser.request(`/account/terms/${String(kept.rows[0]!.id)}`, {
      method: "POST",
      form: { intent: "delete" },
    });
    expect((await soundsOf(bea.id)).map(({ text }) => text)).toEqual(["先週"]);
    const deleted = await browser.request("/account/profile/delete", {
      method: "POST",
      form: { confirmation: "delete" },
    });
    expect(deleted.status).toBeLessThan(400);
    expect(await holdings(id)).toEqual({ terms: 0, drafts: 0, draft_sounds: 0, sounds: 0 });
  });

  it("plays the sound by itself on the answer side once the learner asks for it in Settings", async () => {
    const { browser, id } = await learner("sound-autoplay");
    await importPackage(browser, coreDeck({ "neko.wav": neko }));
    const { html } = await browser.page("/account/settings");
    expect(html).toContain('name="autoplaySounds"');
    expect(html).not.toMatch(/name="autoplaySounds"[^>]*checked/);
    const saved = await browser.request("/account/settings", {
      method: "POST",
      form: { intent: "sounds", autoplaySounds: "on" },
    });
    expect(saved.status).toBe(302);
    await app.db.execute(sql`update terms set due = now() + interval '1 day' where user_id = ${id} and text <> '猫'`);
    const back = await browser.page("/account/review?reveal=1");
    expect(back.html).toMatch(/<audio[^>]*autoplay/i);
  });

  it("refuses bad media with a translated message each, and keeps nothing of the package", async () => {
    const { browser, id } = await learner("sound-bad");
    const refused = async (bytes: Buffer, status: number, message: string, prefix = "") => {
      const response = await upload(browser, bytes, prefix);
      expect(response.status).toBe(status);
      expect(textOf(await response.text())).toContain(message);
      expect(await holdings(id)).toEqual({ terms: 0, drafts: 0, draft_sounds: 0, sounds: 0 });
    };
    // A media map naming a path outside the package (as an entry or as a name).
    await refused(
      coreDeck({ "neko.wav": neko }, { "../0": "neko.wav" }),
      422,
      "This package’s media list names a file inside a folder or outside the package (“neko.wav”)",
    );
    await refused(
      coreDeck({ "neko.wav": neko }, { "0": "../../etc/neko.wav" }),
      422,
      "names a file inside a folder or outside the package (“../../etc/neko.wav”)",
    );
    // A sound over 2 MB, known from the archive's directory before anything is unpacked.
    await refused(
      coreDeck({ "senshuu.mp3": mp3(5100) }),
      413,
      "The sound “senshuu.mp3” is larger than 2 MB, the most one sound may be, so nothing was imported.",
    );
    // Audio browsers do not all play, and bytes that are no sound at all, whatever their names say.
    await refused(
      coreDeck({ "senshuu.mp3": senshuu, "neko.wav": flac() }),
      415,
      "“neko.wav” is not a sound in a format browsers play (MP3, Ogg, M4A, WAV or WebM), so nothing was imported.",
    );
    await refused(
      coreDeck({ "neko.wav": Buffer.from("<html>not a sound</html>") }),
      415,
      "„neko.wav“ ist keine Tonaufnahme in einem Format, das Browser abspielen",
      "/de",
    );
    // Past the learner's limit for sounds (200 MB), counted with what they keep already.
    const { rows } = await app.db.execute(
      sql`insert into terms (user_id, language, text, part_of_speech) values (${id}, 'ja', '既存', 'noun') returning id`,
    );
    await app.db.execute(sql`insert into term_sounds (term_id, user_id, kind, hash, size, name, data)
      values (${String(rows[0]!.id)}, ${id}, 'wav', 'x', ${200 * 1024 * 1024 - 100}, 'big.wav', ${neko})`);
    const response = await upload(browser, coreDeck({ "neko.wav": neko }));
    expect(response.status).toBe(413);
    expect(textOf(await response.text())).toContain(
      "This deck’s sounds would take you past 200 MB of sounds, the most one account can keep, so nothing was imported.",
    );
    expect(await holdings(id)).toEqual({ terms: 1, drafts: 0, draft_sounds: 0, sounds: 1 });
  });

  it("carries known words through the .apkg as tagged notes with suspended cards, and back as known words", async () => {
    const { browser, id } = await learner("known-apkg");
    await app.db.execute(sql`insert into terms (user_id, language, text, meaning, part_of_speech)
      values (${id}, 'de', 'Hund', 'dog', 'noun')`);
    await app.db.execute(sql`insert into ignored_words (user_id, language, word)
      values (${id}, 'de', 'und'), (${id}, 'de', 'der'), (${id}, 'fr', 'le')`);
    const apkg = Buffer.from(await (await browser.request("/account/export?format=apkg")).arrayBuffer());
    const { db, close } = openCollection(unzip(apkg).get("collection.anki2")!);
    try {
      const rows = db
        .prepare("select n.tags, n.flds, c.queue, c.did from notes n join cards c on c.nid = n.id order by n.sfld")
        .all();
      const decks = JSON.parse(String(db.prepare("select decks from col").get()!.decks)) as Record<
        string,
        { name: string }
      >;
      expect(
        rows.map((row) => [
          String(row.flds).split("\x1f")[0],
          String(row.tags).trim(),
          row.queue,
          decks[String(row.did)]!.name,
        ]),
      ).toEqual([
        ["Hund", "", 0, "Polyglot::German (de)"],
        ["der", "polyglot::known", -1, "Polyglot::German (de)"],
        ["le", "polyglot::known", -1, "Polyglot::French (fr)"],
        ["und", "polyglot::known", -1, "Polyglot::German (de)"],
      ]);
    } finally {
      close();
    }
    const other = await learner("known-apkg-back");
    const preview = await importPackage(other.browser, apkg);
    expect(preview).toContain("1 term will be added");
    const terms = await app.db.execute(sql`select text from terms where user_id = ${other.id}`);
    expect(terms.rows.map((row) => row.text)).toEqual(["Hund"]);
    const known = await app.db.execute(
      sql`select language, word from ignored_words where user_id = ${other.id} order by language, word`,
    );
    expect(known.rows).toEqual([
      { language: "de", word: "der" },
      { language: "de", word: "und" },
      { language: "fr", word: "le" },
    ]);
  });
});
