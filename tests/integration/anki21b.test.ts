import { createHash } from "node:crypto";
import { constants, zstdCompressSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInLearner, startApp, textOf, uploadPackage } from "../support/app";
import { sharedDeck } from "../support/anki-files";
import { anki21bPackage, field, zstdFrame, zstdZeros, type MediaFile } from "../support/anki21b-files";
import { startMailSink } from "../support/mail-sink";
import { mp3, ogg } from "../support/sound-files";

/**
 * Packages in Anki's newest layout (`collection.anki21b`, ADR 138): the sounds the notes name come with their terms,
 * read from the zstd-compressed protobuf media list; zstd frames that unpack past their bounds are refused while they
 * unpack, with their message, and nothing of the package stays.
 */

type App = Awaited<ReturnType<typeof startApp>>;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("Anki packages in the newest layout (collection.anki21b)", () => {
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;

  beforeAll(async () => {
    mail = await startMailSink();
    app = await startApp({ SMTP_URL: mail.url });
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
  });

  const learner = (name: string) => signedInLearner(app, mail, name);
  const upload = uploadPackage;
  /** What a learner has in the database: terms, drafts, draft sounds and term sounds. */
  const holdings = async (userId: string) =>
    (
      await app.db.execute(sql`select
        (select count(*)::int from terms where user_id = ${userId}) as terms,
        (select count(*)::int from import_drafts where user_id = ${userId}) as drafts,
        (select count(*)::int from import_draft_sounds s join import_drafts d on d.id = s.draft_id
          where d.user_id = ${userId}) as draft_sounds,
        (select count(*)::int from term_sounds where user_id = ${userId}) as sounds`)
    ).rows[0];

  // The shared deck's notes name hund.mp3 ("der Hund") and katze.mp3 ("Katze"); "das Haus" shows haus.jpg.
  const hund = mp3(6);
  const katze = ogg(300);
  const deck = sharedDeck(18);

  it("keeps the sounds the notes name, found through the protobuf list by position or legacy entry", async () => {
    const { browser, id } = await learner("anki21b-ana");
    const files: MediaFile[] = [
      { name: "haus.jpg", data: Buffer.from("not read: no note's sound") },
      // A field this reader does not know is skipped.
      { name: "hund.mp3", data: hund, extra: field(7, 42) },
      { name: "katze.mp3", data: katze, legacyZip: 9 },
    ];
    const uploaded = await upload(browser, anki21bPackage(deck, files));
    expect(uploaded.status).toBe(303);
    const { html } = await browser.page(uploaded.headers.get("Location")!);
    const preview = textOf(html);
    expect(preview).toContain("3 new terms will be added");
    expect(preview).toContain("2 sounds are kept with their terms.");
    const form = html.match(/<form[^>]*class="actions"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    const fields: Record<string, string> = { intent: "confirm" };
    for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[name!] = value!;
    expect((await browser.request("/account/import", { method: "POST", form: fields })).status).toBe(302);
    const { rows } = await app.db.execute(sql`select t.text, s.kind, s.hash, s.size, s.name from term_sounds s
      join terms t on t.id = s.term_id where s.user_id = ${id} order by t.text`);
    expect(rows).toEqual([
      { text: "Katze", kind: "ogg", hash: sha256(katze), size: katze.length, name: "katze.mp3" },
      { text: "der Hund", kind: "mp3", hash: sha256(hund), size: hund.length, name: "hund.mp3" },
    ]);
    expect(await holdings(id)).toEqual({ terms: 3, drafts: 0, draft_sounds: 0, sounds: 2 });
    // The served sound is the unpacked one.
    const served = await browser.request(`/account/sounds/${sha256(katze)}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(katze)).toBe(true);
  }, 60_000);

  it("refuses zstd bombs and damaged lists while unpacking, with a message each, and keeps nothing", async () => {
    const { browser, id } = await learner("anki21b-bad");
    const refused = async (bytes: Buffer, status: number, message: string, prefix = "") => {
      const response = await upload(browser, bytes, prefix);
      expect(response.status).toBe(status);
      expect(textOf(await response.text())).toContain(message);
      expect(await holdings(id)).toEqual({ terms: 0, drafts: 0, draft_sounds: 0, sounds: 0 });
    };
    const tooLarge = "The sound “hund.mp3” is larger than 2 MB, the most one sound may be, so nothing was imported.";
    // A sound whose list gives 2.5 KB and whose frames unpack to 64 MiB: stopped past 2 MiB.
    const bomb = await zstdZeros(64, hund);
    expect(bomb.length).toBeLessThan(10_000);
    await refused(anki21bPackage(deck, [{ name: "hund.mp3", data: hund, stored: bomb }]), 413, tooLarge);
    // A sound the list says is over 2 MiB: refused before anything is unpacked.
    await refused(anki21bPackage(deck, [{ name: "hund.mp3", data: hund, size: 3 * 1024 * 1024 }]), 413, tooLarge);
    // A collection that unpacks to 300 MiB from a few KB: stopped past 256 MiB.
    const collectionBomb = await zstdZeros(300);
    expect(collectionBomb.length).toBeLessThan(20_000);
    await refused(
      anki21bPackage(deck, [], { storedCollection: collectionBomb }),
      413,
      "Dieses Paket würde weit mehr entpacken, als ein Stapel braucht",
      "/de",
    );
    // A media list that unpacks past 4 MiB.
    await refused(
      anki21bPackage(deck, [{ name: "hund.mp3", data: hund }], { storedList: await zstdZeros(5) }),
      413,
      "This package would unpack to far more than a deck needs",
    );
    // A list naming a path outside the package.
    await refused(
      anki21bPackage(deck, [{ name: "../hund.mp3", data: hund }]),
      422,
      "names a file inside a folder or outside the package (“../hund.mp3”)",
    );
    const damaged = "This Anki package could not be read: the archive or its collection is damaged.";
    // A list that is not that protobuf message (a length past its end), and one that is not zstd at all.
    await refused(
      anki21bPackage(deck, [], { storedList: zstdCompressSync(Buffer.from([0x0a, 0x7f, 0x0a])) }),
      422,
      damaged,
    );
    await refused(anki21bPackage(deck, [], { storedList: Buffer.from("{}") }), 422, damaged);
    // A sound whose bytes are not those the list gives (another size, another SHA-1).
    await refused(anki21bPackage(deck, [{ name: "hund.mp3", data: hund, size: hund.length - 1 }]), 422, damaged);
    await refused(
      anki21bPackage(deck, [{ name: "hund.mp3", data: hund, stored: zstdCompressSync(mp3(6, 1)) }]),
      422,
      damaged,
    );
    // A frame asking for a 128 MiB window: more memory than a zstd frame is given.
    await refused(
      anki21bPackage(deck, [
        { name: "hund.mp3", data: hund, stored: await zstdFrame([hund], { [constants.ZSTD_c_windowLog]: 27 }) },
      ]),
      422,
      damaged,
    );
  }, 60_000);
});
