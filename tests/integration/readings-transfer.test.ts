import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp } from "../support/app";
import { openCollection, unzip } from "../support/anki-files";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;

describe("a term's reading through every export and import", () => {
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

  type Browser = Awaited<ReturnType<typeof signedInBrowser>>;
  const learner = (name: string) => signedInBrowser(app, mail, `${name}-${Date.now()}@example.com`);

  async function readingsOf(browser: Browser) {
    const created = await browser.request("/account/terms/new", {
      method: "POST",
      form: { text: `probe-${Math.random()}`, meaning: "", partOfSpeech: "", notes: "", sentence: "", translation: "" },
    });
    const id = created.headers.get("Location")!.split("/").at(-1)!;
    const { rows } = await app.db.execute(sql`delete from terms where id = ${id} returning user_id`);
    const found = await app.db.execute(
      sql`select text, reading, meaning from terms where user_id = ${String(rows[0]!.user_id)} order by text`,
    );
    return found.rows;
  }

  /** Uploads a file and confirms the import exactly as the preview proposes it. */
  async function importAsProposed(browser: Browser, bytes: Buffer, name: string) {
    const form = new FormData();
    form.set("intent", "upload");
    form.set("file", new File([new Uint8Array(bytes)], name, { type: "application/octet-stream" }));
    form.set("pasted", "");
    const uploaded = await browser.request("/account/import", {
      method: "POST",
      body: form,
      headers: { Origin: APP_URL },
    });
    expect(uploaded.status).toBe(303);
    const { html } = await browser.page(uploaded.headers.get("Location")!);
    const confirm = html.match(/<form[^>]*class="actions"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    const fields: Record<string, string> = { intent: "confirm" };
    for (const [, field, value] of confirm.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[field!] = value!;
    expect((await browser.request("/account/import", { method: "POST", form: fields })).status).toBe(302);
  }

  it("keeps the reading in JSON, CSV and .apkg, out and back in", async () => {
    const ana = await learner("ana");
    for (const [text, reading, meaning] of [
      ["先週", "せんしゅう", "last week"],
      ["Haus", "", "house"],
    ] as const)
      expect(
        (
          await ana.request("/account/terms/new", {
            method: "POST",
            form: { text, reading, meaning, partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
          })
        ).status,
      ).toBe(302);
    const expected = [
      { text: "Haus", reading: "", meaning: "house" },
      { text: "先週", reading: "せんしゅう", meaning: "last week" },
    ];
    expect(await readingsOf(ana)).toEqual(expected);

    const apkg = Buffer.from(await (await ana.request("/account/export?format=apkg")).arrayBuffer());
    const { db, close } = openCollection(unzip(apkg).get("collection.anki2")!);
    try {
      const fields = db
        .prepare("select flds from notes order by sfld")
        .all()
        .map((n) => String(n.flds).split("\x1f"));
      expect(fields.map((f) => [f[0], f[4]])).toEqual([
        ["Haus", ""],
        ["先週", "せんしゅう"],
      ]);
    } finally {
      close();
    }
    const json = Buffer.from(await (await ana.request("/account/export?format=json")).arrayBuffer());
    const csv = Buffer.from(await (await ana.request("/account/export?format=csv")).arrayBuffer());
    expect(csv.toString("utf8")).toContain("先週,せんしゅう,last week");

    for (const [name, bytes] of [
      ["polyglot.apkg", apkg],
      ["polyglot.json", json],
      ["polyglot.csv", csv],
    ] as const) {
      const other = await learner(`bo-${name.replace(".", "-")}`);
      await importAsProposed(other, bytes, name);
      expect(await readingsOf(other), name).toEqual(expected);
    }
  });
});
