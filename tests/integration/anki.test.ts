import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;

/**
 * The zip entries of an archive, read here with zlib alone (stored or deflated entries, from the central directory):
 * independent of the zip library the app uses.
 */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = archive.readUInt16LE(at + 10);
    const compressed = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const local = archive.readUInt32LE(at + 42);
    const name = archive.toString("utf8", at + 46, at + 46 + nameLength);
    const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
    const data = archive.subarray(start, start + compressed);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** A zip archive written here with zlib alone (deflated entries), as another tool would. */
export function zip(files: [string, Buffer][]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of files) {
    const data = deflateRawSync(content);
    const nameBytes = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc32(content), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(content.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(content), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Opens an SQLite file's bytes in a temporary file (node:sqlite reads files). */
function openCollection(bytes: Buffer) {
  const dir = mkdtempSync(path.join(tmpdir(), "anki-test-"));
  writeFileSync(path.join(dir, "collection"), bytes);
  const db = new DatabaseSync(path.join(dir, "collection"));
  return {
    db,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

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

  it("exports an Anki package: a deck per study language, the note type's four fields, cards and the review log", async () => {
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
      expect(models[0]!.flds.map((f) => f.name)).toEqual(["Term", "Meaning", "Example", "Notes"]);
      expect(models[0]!.tmpls).toHaveLength(1);
      const decks = Object.values(JSON.parse(String(col.decks))) as { id: number; name: string }[];
      expect(decks.map((d) => d.name).sort()).toEqual(["Default", "Polyglot::English", "Polyglot::French"]);
      const notes = db.prepare("select id, flds from notes order by sfld").all() as { id: number; flds: string }[];
      expect(notes.map((n) => n.flds.split("\x1f"))).toEqual([
        [
          "Fernweh",
          "longing for far places",
          "Ich habe Fernweh. | I long to travel.<br>Fernweh, again.",
          "German &lt;3 &amp; more",
        ],
        ["Heimweh", "homesickness", "", ""],
        ["bonjour", "hello", "", ""],
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
      expect(decks.find((d) => d.id === french.did)!.name).toBe("Polyglot::French");
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
});
