import { availableParallelism, loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const TEXTS = 200;
const TERMS = 20_000;
const WORDS = ["park", "quiet", "rain", "cream", "river", "house", "garden", "letter", "street", "window"];

/** The text of term n, letters only (a word holds no digits): w + n with a for 0, b for 1… */
const termText = (n: number) => `w${String(n).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}`;

/** A text of many short lines (the slowest shape for the segmenter): about 1,500 lines, 30 KB. */
function manyLines(seed: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 30_000; i++)
    lines.push(`${WORDS[(seed + i) % 10]} ${termText((seed * 31 + i * 7) % TERMS)} ${WORDS[(i * 3) % 10]}.`);
  return lines.join("\n");
}

/**
 * A learner with 200 many-line texts and 20,000 terms (issue 20): the text list answers in under a second, the event
 * loop is never held for more than 100 ms and the liveness probe answers throughout, while the texts are counted.
 */
describe("the reader with many texts and terms", () => {
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let carol: Browser;
  let userId: string;

  beforeAll(async () => {
    mail = await startMailSink();
    app = await startApp({ SMTP_URL: mail.url });
    carol = await signedInBrowser(app, mail, "reader.scale@example.com");
    const [user] = (await app.db.execute(sql`select id from users where email = 'reader.scale@example.com'`)).rows;
    userId = String(user!.id);
    // Written straight to the database, as texts written before their segmentation was stored.
    await app.db.execute(
      sql`insert into terms (user_id, language, text, part_of_speech)
          select ${userId}, 'en', 'w' || translate(n::text, '0123456789', 'abcdefghij'), 'noun'
          from generate_series(0, ${TERMS - 1}) as n`,
    );
    await app.db.execute(sql`update terms set state = 2, scheduled_days = 100, due = now() + interval '50 days'
      where user_id = ${userId} and text in (${termText(0)}, ${termText(7)}, ${termText(14)})`);
    for (let i = 0; i < TEXTS; i++)
      await app.db.execute(
        sql`insert into texts (user_id, language, title, body, created_at)
            values (${userId}, 'en', ${`Text ${String(i).padStart(3, "0")}`}, ${manyLines(i)}, now() - ${i} * interval '1 minute')`,
      );
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
  });

  it("lists a page of texts in under a second without holding up other requests", async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const probes: number[] = [];
    const probing = { on: true };
    const probe = (async () => {
      while (probing.on) {
        const started = performance.now();
        const answer = await fetchHealth(app);
        probes.push(performance.now() - started);
        expect(answer).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    delay.enable();
    // The machine running the tests may be shared: a turn of the event loop can wait for a core. What this thread ran
    // between two turns (its CPU time) is what the server held the event loop for.
    let lastCpu = cpuMs();
    let heldMs = 0;
    let peakRss = process.memoryUsage().rss;
    const watch = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      const cpu = cpuMs();
      heldMs = Math.max(heldMs, cpu - lastCpu);
      lastCpu = cpu;
    }, 5);
    const rss = process.memoryUsage().rss;
    const times: number[] = [];
    let html = "";
    let counted = false;
    for (let round = 0; round < 200 && !counted; round++) {
      const started = performance.now();
      const response = await carol.request("/account/texts");
      html = await response.text();
      times.push(performance.now() - started);
      expect(response.status).toBe(200);
      counted = !textOf(html).includes("Still counting");
      if (!counted) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    delay.disable();
    clearInterval(watch);
    probing.on = false;
    await probe;
    const rssGrowth = process.memoryUsage().rss - rss;
    console.log(
      `200 texts, 20,000 terms: list ${times.length} requests, slowest ${Math.max(...times).toFixed(0)} ms, ` +
        `last ${times.at(-1)!.toFixed(0)} ms; longest event-loop delay ${(delay.max / 1e6).toFixed(0)} ms ` +
        `(${heldMs.toFixed(0)} ms of CPU between two turns, load ${loadavg()[0]!.toFixed(1)}); ` +
        `slowest probe ${Math.max(...probes).toFixed(0)} ms; RSS ${(rss / 2 ** 20).toFixed(0)} MiB, peak ` +
        `${(peakRss / 2 ** 20).toFixed(0)} MiB, +${(rssGrowth / 2 ** 20).toFixed(0)} MiB at the end`,
    );
    expect(counted).toBe(true);
    // Wall-clock bounds hold on a machine with a core to spare; on one loaded many times over its cores (a shared test
    // machine), every figure stretches with the wait for a core, and only bounds far below the unbounded work hold.
    const spare = loadavg()[0]! < availableParallelism();
    expect(Math.max(...times)).toBeLessThan(spare ? 1_000 : 3_000);
    // The 100 ms bound on a turn of the event loop is held against the production build in its own process
    // (bounded-work.test.ts, "the reader's text list"): here the development build of React and the test's own code
    // share the thread, so a turn is bounded with room for them (73 ms measured on a machine loaded 8 times over).
    expect(heldMs).toBeLessThan(spare ? 150 : 250);
    expect(delay.max / 1e6).toBeLessThan(spare ? 500 : 3_000);
    expect(Math.max(...probes)).toBeLessThan(spare ? 1_000 : 3_000);
    // A page of 20 texts, with links to the next pages that need no JavaScript.
    expect(html.match(/href="\/account\/texts\/[0-9a-f-]{36}"/g)?.length).toBe(20);
    expect(html).toContain('href="/account/texts?page=2"');
    // Every text is counted: each row shows its words, and the texts holding learned terms (wa, wh, wbe) known words.
    const cells = [...html.replace(/<!-- -->/g, "").matchAll(/data-label="Known">([\d,]+) \(/g)].map((m) => m[1]);
    expect(cells).toHaveLength(20);
    expect(cells.some((known) => known !== "0")).toBe(true);

    const again = performance.now();
    const cached = await carol.request("/account/texts?page=10");
    const last = await cached.text();
    // Counted already: drawn from memory.
    expect(performance.now() - again).toBeLessThan(spare ? 200 : 1_000);
    expect(last.match(/href="\/account\/texts\/[0-9a-f-]{36}"/g)?.length).toBe(20);
    expect(last).not.toContain('href="/account/texts?page=11"');
    // Past the last page: the last page; not a number: the first.
    expect(textOf(await (await carol.request("/account/texts?page=99")).text())).toContain("Page 10 of 10");
    expect((await carol.request("/account/texts?page=abc")).status).toBe(200);
  }, 180_000);

  it("stops at 1,000 texts and 50,000 terms on every path that adds them, with a translated message", async () => {
    await app.db.execute(
      sql`insert into texts (user_id, language, title, body, segments, word_count)
          select ${userId}, 'en', 'Filler ' || n, 'A short text.', null, null from generate_series(1, 1000 - ${TEXTS}) as n`,
    );
    await app.db.execute(
      sql`insert into terms (user_id, language, text, part_of_speech)
          select ${userId}, 'en', 'x' || n, 'noun' from generate_series(1, 50000 - ${TERMS}) as n`,
    );
    const post = (path: string, fields: Record<string, string>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      return carol.request(path, { method: "POST", body, headers: { Origin: APP_URL } });
    };
    const shown = async (response: Response) => textOf((await response.text()).replace(/<!-- -->/g, ""));

    const text = await post("/account/texts/new", { title: "One more", body: "One text too many." });
    expect(text.status).toBe(409);
    expect(await shown(text)).toContain("You have 1,000 texts, the most one account can keep");
    const german = await post("/de/account/texts/new", { title: "Noch einer", body: "Ein Text zu viel." });
    expect(await shown(german)).toContain("Du hast 1.000 Texte");

    const sample = await carol.request("/texts/en-my-street", { method: "POST", form: {} });
    expect(sample.status).toBe(302);
    expect(await shown(await carol.request(sample.headers.get("Location")!))).toContain("You have 1,000 texts");

    const term = await post("/account/terms/new", { text: "extra", meaning: "", partOfSpeech: "noun", notes: "" });
    expect(term.status).toBe(409);
    expect(await shown(term)).toContain("You have 50,000 terms, the most one account can keep");

    const [first] = (await app.db.execute(sql`select id from texts where user_id = ${userId} and title = 'Text 000'`))
      .rows;
    const reader = await carol.request(`/account/texts/${String(first!.id)}?page=1&word=0`, {
      method: "POST",
      form: { intent: "addTerm", text: "quiet river", meaning: "", partOfSpeech: "noun", word: "0", page: "1" },
    });
    expect(reader.status).toBe(409);
    expect(await shown(reader)).toContain("You have 50,000 terms");

    const [publicTerm] = (await app.db.execute(sql`select id from public_terms where language = 'en' limit 1`)).rows;
    if (publicTerm) {
      const added = await carol.request("/account/explore/public", {
        method: "POST",
        form: { intent: "add", termId: String(publicTerm.id), language: "en", level: "beginner" },
      });
      expect(added.status).toBe(302);
      expect(await shown(await carol.request(added.headers.get("Location")!))).toContain("You have 50,000 terms");
    }

    const file = new FormData();
    file.set("intent", "upload");
    file.set("file", new File(["term,meaning\nbrandnew,new\n"], "terms.csv", { type: "text/plain" }));
    file.set("pasted", "");
    const uploaded = await carol.request("/account/import", {
      method: "POST",
      body: file,
      headers: { Origin: APP_URL },
    });
    expect(uploaded.status).toBe(303);
    const preview = await (await carol.request(uploaded.headers.get("Location")!)).text();
    const form = preview.match(/<form[^>]*class="actions"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    const fields: Record<string, string> = { intent: "confirm" };
    for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
      fields[name!] = value!;
    const imported = await carol.request("/account/import", { method: "POST", form: fields });
    expect(imported.status).toBe(400);
    expect(await shown(imported)).toContain("past 50,000 terms");
    const [count] = (await app.db.execute(sql`select count(*)::int as n from terms where user_id = ${userId}`)).rows;
    expect(count!.n).toBe(50_000);
  }, 180_000);
});

/** CPU time this thread has used, in milliseconds. */
function cpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/** The check the server answers `GET /readyz` with. */
async function fetchHealth(app: App): Promise<boolean> {
  await app.checkHealth();
  return true;
}
