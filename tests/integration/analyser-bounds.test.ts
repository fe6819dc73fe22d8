/**
 * A Japanese text of one long line, written and edited through the form of the production server (`node server.ts`,
 * embedded database, kuromoji's dictionary from its package): the analyser is given the line in bounded pieces, so the
 * text is stored within seconds while no turn of the event loop is held past the bound, memory stays put, and the
 * reader shows it with its readings; a Chinese text of one line likewise. Needs `npm run build`.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookiesOf, getPage, rawRequest, signInThroughLog, type RawResponse } from "../support/raw-http.ts";
import { loopDuring, type LoopReport } from "../support/loop-watch.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

let server: ServerProcess;
let cookie: string;

/** Ordinary Japanese sentences, over and over, with no line break: about 16,000 characters (48 KB) fit a text. */
const SENTENCES = [
  "昨日、友達と駅の近くの喫茶店で美味しいコーヒーを飲みました。",
  "本当に美味しかったです！",
  "あなたも一緒に行きませんか？",
  "私は毎朝六時に起きて、公園を散歩してから朝ご飯を食べます。",
  "先生は学生たちに新しい漢字の読み方を丁寧に教えてくれました。",
].join("");
const ONE_LINE_OF_JAPANESE = SENTENCES.repeat(200).slice(0, 16_000);

/** A form POST as the browser sends a text's form (multipart: Japanese in UTF-8, not percent-encoded). */
function form(target: string, fields: Record<string, string>): Promise<RawResponse> {
  const boundary = "----analyser";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return rawRequest(server, {
    method: "POST",
    path: target,
    headers: {
      "User-Agent": BROWSER_USER_AGENT,
      Origin: server.baseUrl,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      Accept: "text/html",
      Cookie: cookie,
    },
    body: Buffer.from(`${parts.join("")}--${boundary}--\r\n`),
  });
}

const rssMiB = () => Number(readFileSync(`/proc/${server.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;

function expectLoopFree(attack: string, report: LoopReport) {
  console.log(
    `${attack}: answered in ${report.wallMs.toFixed(0)} ms (${report.cpuMs.toFixed(0)} ms of server CPU); longest ` +
      `turn held ${report.heldMs} ms; ${report.probes.length} probes, slowest ${Math.max(...report.probes).toFixed(0)} ms`,
  );
  expect(report.blocked, attack).toEqual([]);
  expect(report.probeFailures, attack).toEqual([]);
  expect(report.probes.length, attack).toBeGreaterThan(0);
}

/** Writes a text through the form while watching the loop and the memory; resolves with the text's id. */
async function written(attack: string, target: string, fields: Record<string, string>) {
  const before = rssMiB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 20);
  const report = await loopDuring(server, () => form(target, fields)).finally(() => clearInterval(sampler));
  console.log(`${attack}: RSS ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB at peak`);
  expect(report.result.status, report.result.body.slice(0, 300)).toBe(302);
  expectLoopFree(attack, report);
  // Kuromoji given the whole line took gigabytes; in pieces its memory stays within its dictionary's.
  expect(peak - before, attack).toBeLessThan(300);
  expect(Math.min(report.wallMs, report.cpuMs), attack).toBeLessThan(10_000);
  return String(report.result.headers.location).split("/").pop()!.split("?")[0]!;
}

beforeAll(async () => {
  server = await startServer();
  ({ cookie } = await signInThroughLog(server, `analyser-${process.pid}@example.test`));
  const chosen = await form("/preferences", {
    intent: "studyLanguage",
    studyLanguage: "ja",
    redirectTo: "/account/texts",
  });
  expect(chosen.status).toBeLessThan(400);
  const language = cookiesOf(chosen).get("studyLanguage");
  if (language) cookie += `; studyLanguage=${language}`;
  // The first Japanese text loads the analyser, once per process, before the attack.
  const first = await form("/account/texts/new", { title: "Erst", body: "水を飲みました。" });
  expect(first.status).toBe(302);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("a Japanese text of one long line", () => {
  it("stores 16,000 characters of ordinary Japanese in one line, loop free, and reads it with its readings", async () => {
    const id = await written("16,000 characters of Japanese in one line", "/account/texts/new", {
      title: "Eine Zeile",
      body: ONE_LINE_OF_JAPANESE,
    });
    const page = await getPage(server, `/account/texts/${id}`, { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<ruby>飲<rt>の<\/rt><\/ruby>みました/);
  }, 120_000);

  it("stores 6,000 letters in one line and edits a text into 16,000 kanji in one line, loop free", async () => {
    const id = await written("6,000 letters in one line", "/account/texts/new", {
      title: "Buchstaben",
      body: "a".repeat(6_000),
    });
    expect((await getPage(server, `/account/texts/${id}`, { Cookie: cookie })).status).toBe(200);
    const edited = await written("a text edited into 16,000 kanji in one line", `/account/texts/${id}`, {
      intent: "update",
      title: "Kanji",
      body: "漢字".repeat(8_000),
    });
    expect(edited).toBe(id);
    const after = await getPage(server, `/account/texts/${id}`, { Cookie: cookie });
    expect(after.status).toBe(200);
    expect(after.body).toContain("漢字");
  }, 120_000);

  it("stores 20,000 letters in one line (which once ran the heap out) without a 5xx, loop free", async () => {
    const id = await written("20,000 letters in one line", "/account/texts/new", {
      title: "Mehr",
      body: "a".repeat(20_000),
    });
    expect((await getPage(server, `/account/texts/${id}`, { Cookie: cookie })).status).toBe(200);
  }, 120_000);
});

describe("a Chinese text of one long line", () => {
  it("stores 16,000 characters of Chinese in one line, loop free, and reads it with its pinyin", async () => {
    const chosen = await form("/preferences", {
      intent: "studyLanguage",
      studyLanguage: "zh",
      redirectTo: "/account/texts",
    });
    expect(chosen.status).toBeLessThan(400);
    const language = cookiesOf(chosen).get("studyLanguage");
    if (language) cookie = cookie.replace(/studyLanguage=[^;]*/, `studyLanguage=${language}`);
    // jieba's dictionary loads with the first Chinese text, once per process.
    expect((await form("/account/texts/new", { title: "Erst", body: "我们在学习中文。" })).status).toBe(302);
    const prose = "昨天我和朋友在学校附近的咖啡馆喝了一杯咖啡，然后去公园散步！你周末想和我们一起去山上看风景吗？";
    const id = await written("16,000 characters of Chinese in one line", "/account/texts/new", {
      title: "Eine Zeile",
      body: prose.repeat(400).slice(0, 16_000),
    });
    const page = await getPage(server, `/account/texts/${id}`, { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<ruby>咖<rt>kā<\/rt>啡<rt>fēi<\/rt><\/ruby>/);
  }, 120_000);
});
