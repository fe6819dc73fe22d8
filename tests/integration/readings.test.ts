import { availableParallelism, loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp } from "../support/app";
import { segmentOffsetsNow } from "../../app/reading/segment";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const JAPANESE = [
  "昨日、友達と駅の近くの喫茶店で美味しいコーヒーを飲みました。",
  "私は毎朝六時に起きて、公園を散歩してから朝ご飯を食べます。",
  "日本語を勉強するのは難しいですが、とても楽しいと思います。",
  "週末は家族と一緒に山へ行って、きれいな景色を見たいです。",
  "先生は学生たちに新しい漢字の読み方を丁寧に教えてくれました。",
];
const CHINESE = [
  "昨天我和朋友在学校附近的咖啡馆喝了一杯咖啡。",
  "我每天早上六点起床，先去公园散步，然后吃早饭。",
  "学习中文虽然很难，但是我觉得非常有意思。",
  "周末我们全家一起去山上看美丽的风景。",
  "老师耐心地教学生们新汉字的读音和意思。",
];

/** About `words` words of the language: its sentences over and over, five to a paragraph. */
function textOfWords(sentences: string[], words: number, perSentence: number): string {
  const lines: string[] = [];
  let line = "";
  for (let i = 0; i * perSentence < words; i++) {
    line += sentences[i % sentences.length]!;
    if (i % 5 === 4) [lines[lines.length], line] = [line, ""];
  }
  return [...lines, line].filter(Boolean).join("\n\n");
}

const CPU = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * Japanese and Chinese texts of 3,000 words in the reader (issue 26): cut by their analysers with readings over the
 * words, rendered server-side within the reader's page budget of 150 ms, and the analysers loaded without holding the
 * event loop for long.
 */
describe("readings in the reader", () => {
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let learner: Browser;

  beforeAll(async () => {
    mail = await startMailSink();
    app = await startApp({ SMTP_URL: mail.url });
    learner = await signedInBrowser(app, mail, "readings@example.com");
  }, 120_000);
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
  });

  async function addText(language: string, title: string, body: string) {
    await learner.request("/preferences", {
      method: "POST",
      form: { intent: "studyLanguage", studyLanguage: language, redirectTo: "/account/texts" },
    });
    const form = new FormData();
    form.append("title", title);
    form.append("body", body);
    // The longest stretch of CPU this thread ran between two turns, while the text is written (the analyser loads).
    let last = CPU();
    let held = 0;
    const watch = setInterval(() => {
      const now = CPU();
      held = Math.max(held, now - last);
      last = now;
    }, 2);
    const started = performance.now();
    const response = await learner.request("/account/texts/new", {
      method: "POST",
      body: form,
      headers: { Origin: APP_URL },
    });
    const written = performance.now() - started;
    clearInterval(watch);
    expect(response.status).toBe(302);
    const id = response.headers.get("Location")!.split("/").at(-1)!;
    const { rows } = await app.db.execute(sql`select word_count from texts where id = ${id}`);
    return { id, words: Number(rows[0]!.word_count), written, held };
  }

  /** Server-side render times of the reader's first page (the request in-process, without network). */
  async function renderTimes(id: string, rounds = 12) {
    const times: number[] = [];
    const cpu: number[] = [];
    let html = "";
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      const cpuStarted = CPU();
      const response = await learner.request(`/account/texts/${id}`);
      html = await response.text();
      times.push(performance.now() - started);
      cpu.push(CPU() - cpuStarted);
      expect(response.status).toBe(200);
    }
    const median = (values: number[]) => values.slice(1).sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
    return { first: times[0]!, median: median(times), cpu: median(cpu), max: Math.max(...times.slice(1)), html };
  }

  it.each([
    ["ja", "Japanese", JAPANESE, 13, /<ruby>飲<rt>の<\/rt><\/ruby>みました/],
    ["zh", "Chinese", CHINESE, 10, /<ruby>喝<rt>hē<\/rt>/],
  ])("renders a 3,000-word %s text with readings in under 150 ms", async (language, name, sentences, per, ruby) => {
    const body = textOfWords(sentences, 3_000, per);
    const { id, words, written, held } = await addText(language, `${name} 3000`, body);
    expect(words).toBeGreaterThanOrEqual(3_000);
    const { first, median, cpu, max, html } = await renderTimes(id);
    console.log(
      `${name}: ${words} words, ${body.length} characters; written (analyser loaded, text cut) in ${written.toFixed(0)} ms, ` +
        `longest turn ${held.toFixed(0)} ms of CPU; reader page 1 first ${first.toFixed(0)} ms, ` +
        `median ${median.toFixed(0)} ms (${cpu.toFixed(0)} ms of CPU), slowest ${max.toFixed(0)} ms ` +
        `(load ${loadavg()[0]!.toFixed(1)})`,
    );
    expect(html).toMatch(ruby);
    expect(html).toContain('class="reader-text with-readings"');
    // Kana and punctuation get no reading: no <rt> holds anything but hiragana or pinyin.
    for (const [, rt] of html.matchAll(/<rt>([^<]*)<\/rt>/g))
      expect(rt).toMatch(language === "ja" ? /^[\u3041-\u309f]+$/u : /^[a-zü āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]+$/u);
    // The same page without its readings, to tell what drawing them costs.
    await learner.request(`/account/texts/${id}`, {
      method: "POST",
      form: { intent: "readings", show: "off", page: "1" },
    });
    const hidden = await renderTimes(id);
    expect(hidden.html).not.toContain("<ruby>");
    await learner.request(`/account/texts/${id}`, {
      method: "POST",
      form: { intent: "readings", show: "on", page: "1" },
    });
    console.log(
      `${name} without readings: median ${hidden.median.toFixed(0)} ms (${hidden.cpu.toFixed(0)} ms of CPU), ` +
        `slowest ${hidden.max.toFixed(0)} ms; page 1 ${(html.length / 1024).toFixed(0)} KiB with readings, ` +
        `${(hidden.html.length / 1024).toFixed(0)} KiB without`,
    );
    // On a machine loaded beyond its cores (a shared test machine) a request also waits for a core: there, the CPU time
    // the request took is held to the budget.
    const spare = loadavg()[0]! < availableParallelism();
    expect(spare ? median : cpu).toBeLessThan(150);
  });

  it("renders a 3,000-word English text in the same time, for comparison (no analyser, no readings)", async () => {
    const english = ["The quiet river runs past the old house at the end of our street every single day."];
    const body = textOfWords(english, 3_000, 16);
    const { id, words } = await addText("en", "English 3000", body);
    expect(words).toBeGreaterThanOrEqual(3_000);
    const { first, median, cpu, max, html } = await renderTimes(id);
    console.log(
      `English: ${words} words; reader page 1 first ${first.toFixed(0)} ms, median ${median.toFixed(0)} ms ` +
        `(${cpu.toFixed(0)} ms of CPU), slowest ${max.toFixed(0)} ms (load ${loadavg()[0]!.toFixed(1)})`,
    );
    expect(html).not.toContain("<ruby>");
    expect(html).not.toContain('name="intent" value="readings"');
  });

  it("cuts a Japanese text again, with readings, when Intl.Segmenter cut it before (or the dictionary was missing)", async () => {
    const { id } = await addText("ja", "Before", "水を飲みました。");
    const body = "友達とお茶を飲みました。";
    // As stored before the analyser: the platform's offsets (飲|み|ま|した).
    await app.db.execute(
      sql`update texts set body = ${body}, segments = ${JSON.stringify(segmentOffsetsNow("ja", body))} where id = ${id}`,
    );
    const { html } = await learner.page(`/account/texts/${id}`);
    expect(html).toMatch(/<ruby>飲<rt>の<\/rt><\/ruby>みました/);
    const { rows } = await app.db.execute(sql`select segments, word_count from texts where id = ${id}`);
    expect(JSON.parse(String(rows[0]!.segments))).toMatchObject({
      by: "kuromoji-ipadic",
      readings: ["ともだち", null, "おちゃ", null, "のみました"],
    });
    expect(rows[0]!.word_count).toBe(5);
  });

  it("hides the readings from the reader and from Settings, and shows them again", async () => {
    const { id } = await addText("ja", "Short", "水を飲みました。");
    expect((await learner.page(`/account/texts/${id}`)).html).toContain("<ruby>");
    const hide = await learner.request(`/account/texts/${id}`, {
      method: "POST",
      form: { intent: "readings", show: "off", page: "1" },
    });
    expect(hide.status).toBe(302);
    expect(hide.headers.get("Location")).toBe(`/account/texts/${id}?page=1`);
    let html = (await learner.page(`/account/texts/${id}`)).html;
    expect(html).not.toContain("<ruby>");
    expect(html).toContain("Show readings");
    const shown = await learner.request("/account/settings", {
      method: "POST",
      form: { intent: "readings", showReadings: "on" },
    });
    expect(shown.status).toBe(302);
    html = (await learner.page(`/account/texts/${id}`)).html;
    expect(html).toContain("<ruby>");
    expect(html).toContain("Hide readings");
    await learner.request("/account/settings", { method: "POST", form: { intent: "readings" } });
    expect((await learner.page(`/account/texts/${id}`)).html).not.toContain("<ruby>");
    const box = /<input[^>]*name="showReadings"[^>]*>/.exec((await learner.page("/account/settings")).html)?.[0];
    expect(box).toBeDefined();
    expect(box).not.toContain("checked");
    const bad = await learner.request(`/account/texts/${id}`, {
      method: "POST",
      form: { intent: "readings", show: "maybe", page: "1" },
    });
    expect(bad.status).toBe(400);
  });
});
