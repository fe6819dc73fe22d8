/**
 * The figures of the attacks of issues 20 and 51, measured on the production build (`npm run build` first, then
 * `npm run attack-figures`): for each attack, how long its answer took (wall time and the server's CPU time),
 * the longest turn of the event loop the server held by its own CPU meanwhile, and the server's resident memory before
 * the attack and at its peak (read from /proc every 20 ms).
 *
 * 1. a 300 MiB chunked body to /theme, then twelve parallel chunked bodies of 400 MiB to /theme and /basic-mode;
 * 2. an Anki plain-text file with `#html:true` and a cell of 200,000 `<`;
 * 3. a learner with 20,000 terms (through the import) and 210 texts of 30 KB in 1,500 short lines (through the form),
 *    then `/account/texts` until every text is counted;
 * 4. (issue 51) `japanese-line`: Japanese texts of one line through the text form: 16,000 characters of ordinary
 *    prose, 6,000 letters, a text edited into 16,000 kanji, then 20,000 letters (which once ran the heap out);
 * 5. (issue 51) `slow-bodies`: eight connections post a form announcing 60,000 bytes at one byte a second (no
 *    account) while a signed-in learner asks for a page every half second for 20 s;
 * 6. `page-bytes`: a learner keeps three pages, then another one opens twenty previews of large imports;
 * 7. `path-table`: a learner opens 140 term pages, then another learner opens a term page of their own twice.
 *
 * 8. (issue 51) `anki-view`: an Anki package of about 1 KB whose `notes` is a recursive view of 14 million rows;
 * 9. `fit-history`: an Anki package with one card of 15,000 reviews, imported, then the background FSRS fit it asks
 *    for (timed until the server logs the fit's end).
 *
 * Knobs: ATTACKS (`bodies,anki,texts,japanese-line,slow-bodies,page-bytes,path-table,anki-view,fit-history`, any of
 * them; the default is `bodies,anki,texts,anki-view,fit-history`), SERVER_NODE_OPTIONS (e.g. `--trace-gc`,
 * `--cpu-prof`, `--max-old-space-size=3072`).
 * Not part of `npm test`: its figures depend on the machine.
 */
import { readFileSync } from "node:fs";
import { longHistoryDeck, recursiveViewDeck } from "../tests/support/anki-files.ts";
import { request } from "node:http";
import { cookiesOf, getPage, rawRequest, signInThroughLog, type RawResponse } from "../tests/support/raw-http.ts";
import { loopDuring, processCpuMs, type LoopReport } from "../tests/support/loop-watch.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../tests/support/server-process.ts";
import { cachedPage, largePreview, learner, newTerm, slowBodies } from "../tests/support/edge-attacks.ts";

const MiB = 1024 * 1024;
const attacks = new Set((process.env.ATTACKS ?? "bodies,anki,texts,anki-view,fit-history").split(","));
const server: ServerProcess = await startServer({
  nodeOptions: process.env.SERVER_NODE_OPTIONS?.split(" ").filter(Boolean),
});
const rssMiB = () => Number(readFileSync(`/proc/${server.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1]) / 1024;

/** Runs `work` under loopDuring while sampling the server's memory; prints one line of figures. */
async function measure<T>(name: string, work: () => Promise<T>): Promise<LoopReport & { result: T }> {
  const before = rssMiB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 20);
  try {
    const report = await loopDuring(server, work, Number.POSITIVE_INFINITY);
    peak = Math.max(peak, rssMiB());
    console.log(
      `${name}: answered in ${(report.wallMs / 1000).toFixed(2)} s (${(report.cpuMs / 1000).toFixed(2)} s of server ` +
        `CPU); longest turn held ${report.heldMs} ms; RSS ${before.toFixed(0)} MiB before, ${peak.toFixed(0)} MiB ` +
        `at peak; ${report.probes.length} liveness probes, slowest ${Math.max(...report.probes).toFixed(0)} ms`,
    );
    return report;
  } finally {
    clearInterval(sampler);
  }
}

const post = (target: string, cookie: string, type: string, body: string): Promise<RawResponse> =>
  rawRequest(server, {
    method: "POST",
    path: target,
    headers: { "User-Agent": BROWSER_USER_AGENT, Origin: server.baseUrl, "Content-Type": type, Cookie: cookie },
    body,
  });

/** Streams `totalBytes` without a length; resolves with the status once answered and the client stopped writing. */
function streamChunked(target: string, totalBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const req = request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path: target,
        headers: {
          "User-Agent": BROWSER_USER_AGENT,
          Origin: server.baseUrl,
          "Content-Type": "application/x-www-form-urlencoded",
          "Transfer-Encoding": "chunked",
        },
        agent: false,
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on("end", () => {
          req.destroy();
          resolve(status);
        });
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (status && (error.code === "EPIPE" || error.code === "ECONNRESET")) resolve(status);
      else reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    req.write("theme=");
    pump();
  });
}

/** An upload to the import as its form sends it. */
function send(cookie: string, fileName: string, type: string, content: string | Buffer): Promise<RawResponse> {
  const boundary = "----figures";
  return rawRequest(server, {
    method: "POST",
    path: "/account/import",
    headers: {
      "User-Agent": BROWSER_USER_AGENT,
      Origin: server.baseUrl,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      Cookie: cookie,
    },
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
}

/** An upload to the import as its form sends it; resolves with the preview page it leads to. */
async function upload(cookie: string, fileName: string, type: string, content: string | Buffer) {
  const uploaded = await send(cookie, fileName, type, content);
  if (uploaded.status !== 303) throw new Error(`upload answered ${uploaded.status}: ${uploaded.body.slice(0, 300)}`);
  const location = String(uploaded.headers.location);
  const preview = await getPage(server, location, { Cookie: cookie });
  return { preview, draft: new URL(location, server.baseUrl).searchParams.get("draft")! };
}

/** A form as the browser sends a text's (multipart: Japanese in UTF-8, not percent-encoded). */
function multipart(target: string, cookie: string, fields: Record<string, string>) {
  const boundary = "----figures";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return post(target, cookie, `multipart/form-data; boundary=${boundary}`, `${parts.join("")}--${boundary}--\r\n`);
}

async function japaneseLine() {
  const { cookie: session } = await signInThroughLog(server, `figures-japanese-${process.pid}@example.test`);
  const chosen = await post(
    "/preferences",
    session,
    "application/x-www-form-urlencoded",
    new URLSearchParams({ intent: "studyLanguage", studyLanguage: "ja", redirectTo: "/account/texts" }).toString(),
  );
  const language = cookiesOf(chosen).get("studyLanguage");
  const cookie = language ? `${session}; studyLanguage=${language}` : session;
  const write = async (name: string, target: string, title: string, body: string) => {
    const fields: Record<string, string> = target.endsWith("/new")
      ? { title, body }
      : { intent: "update", title, body };
    const { result } = await measure(name, () => multipart(target, cookie, fields));
    if (result.status !== 302) throw new Error(`${name} answered ${result.status}`);
    return String(result.headers.location).split("/").pop()!.split("?")[0]!;
  };
  // The analyser loads with the first Japanese text, once per process.
  await write("the first Japanese text (the analyser loads)", "/account/texts/new", "Erst", "水を飲みました。");
  const prose = [
    "昨日、友達と駅の近くの喫茶店で美味しいコーヒーを飲みました。",
    "本当に美味しかったです！",
    "あなたも一緒に行きませんか？",
    "私は毎朝六時に起きて、公園を散歩してから朝ご飯を食べます。",
    "先生は学生たちに新しい漢字の読み方を丁寧に教えてくれました。",
  ].join("");
  const id = await write(
    "16,000 characters of Japanese prose in one line",
    "/account/texts/new",
    "Prosa",
    prose.repeat(200).slice(0, 16_000),
  );
  await write("6,000 letters in one line", "/account/texts/new", "Buchstaben", "a".repeat(6_000));
  await write("a text edited into 16,000 kanji in one line", `/account/texts/${id}`, "Kanji", "漢字".repeat(8_000));
  const page = await getPage(server, `/account/texts/${id}`, { Cookie: cookie });
  if (page.status !== 200) throw new Error(`the edited text answered ${page.status}`);
  await write("20,000 letters in one line", "/account/texts/new", "Mehr", "a".repeat(20_000));
}

try {
  if (attacks.has("bodies")) {
    await post("/theme", "", "application/x-www-form-urlencoded", "theme=dark&redirectTo=%2F");
    const one = await measure("300 MiB chunked to /theme", () => streamChunked("/theme", 300 * MiB));
    if (one.result !== 413) throw new Error(`300 MiB to /theme answered ${one.result}`);
    const many = await measure("12 parallel chunked bodies of 400 MiB", () =>
      Promise.all(Array.from({ length: 12 }, (_, i) => streamChunked(i % 2 ? "/theme" : "/basic-mode", 400 * MiB))),
    );
    if (many.result.some((status) => status !== 413)) throw new Error(`answers: ${many.result.join(", ")}`);
  }

  if (attacks.has("anki")) {
    const { cookie } = await signInThroughLog(server, `figures-anki-${process.pid}@example.test`);
    await upload(cookie, "warm.txt", "text/plain", "#separator:tab\n#html:true\nKatze\tcat\n");
    const content = `#separator:tab\n#html:true\n${"<".repeat(200_000)}\tmeaning\nHund\tdog\n`;
    const report = await measure("Anki cell of 200,000 <", () => upload(cookie, "deck.txt", "text/plain", content));
    if (report.result.preview.status !== 200) throw new Error(`preview answered ${report.result.preview.status}`);
  }

  if (attacks.has("japanese-line")) await japaneseLine();

  if (attacks.has("texts")) {
    const TERMS = 20_000;
    const TEXTS = 210;
    const { cookie } = await signInThroughLog(server, `figures-reader-${process.pid}@example.test`);
    const termText = (n: number) => `w${String(n).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}`;
    const WORDS = ["park", "quiet", "rain", "cream", "river", "house", "garden", "letter", "street", "window"];
    const manyLines = (seed: number) => {
      const lines: string[] = [];
      for (let i = 0, length = 0; length < 30_000; i++) {
        const line = `${WORDS[(seed + i) % 10]} ${termText((seed * 31 + i * 7) % TERMS)} ${WORDS[(i * 3) % 10]}.`;
        lines.push(line);
        length += line.length + 1;
      }
      return lines.join("\n");
    };
    const csv = ["term,meaning", ...Array.from({ length: TERMS }, (_, n) => `${termText(n)},m`)].join("\n");
    await measure(`the import of ${TERMS} terms (upload, preview, confirm)`, async () => {
      const { draft } = await upload(cookie, "terms.csv", "text/csv", csv);
      const confirmed = await post(
        "/account/import",
        cookie,
        "application/x-www-form-urlencoded",
        new URLSearchParams({ intent: "confirm", draft }).toString(),
      );
      if (confirmed.status >= 400) throw new Error(`confirm answered ${confirmed.status}`);
    });
    await measure(`posting ${TEXTS} texts of 30 KB in 1,500 lines`, async () => {
      for (let i = 0; i < TEXTS; i++) {
        const body = new URLSearchParams({ title: `Text ${i}`, body: manyLines(i) }).toString();
        const text = await post("/account/texts/new", cookie, "application/x-www-form-urlencoded", body);
        if (text.status !== 302) throw new Error(`text ${i} answered ${text.status}`);
      }
    });
    const times: string[] = [];
    await measure(`/account/texts with ${TEXTS} texts and ${TERMS} terms, until all are counted`, async () => {
      for (let round = 0; round < 400; round++) {
        const started = performance.now();
        const cpu = processCpuMs(server.pid);
        const page = await getPage(server, "/account/texts", { Cookie: cookie });
        times.push(`${(performance.now() - started).toFixed(0)} ms (${processCpuMs(server.pid) - cpu} ms CPU)`);
        if (page.status !== 200) throw new Error(`/account/texts answered ${page.status}`);
        if (!/Still counting the words of [\d,]+ texts?:/.test(page.body)) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      throw new Error("the texts were never all counted");
    });
    console.log(`  each request for the list: ${times.join(", ")}`);
  }

  if (attacks.has("slow-bodies")) {
    const cookie = await learner(server, `figures-slow-${process.pid}@example.test`);
    const attack = slowBodies(server, 8);
    const report = await measure("8 slow bodies to /form, a signed-in page every 0.5 s for 20 s", async () => {
      const answers: { status: number; ms: number }[] = [];
      const started = performance.now();
      while (performance.now() - started < 20_000) {
        const at = performance.now();
        const page = await rawRequest(server, {
          path: "/account/statistics",
          headers: { Cookie: cookie, "User-Agent": BROWSER_USER_AGENT, Accept: "text/html" },
          timeoutMs: 90_000,
        });
        answers.push({ status: page.status, ms: performance.now() - at });
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return answers;
    });
    attack.stop();
    const slow = await Promise.all(attack.answers);
    const count = (status: number) => report.result.filter((answer) => answer.status === status).length;
    console.log(
      `  signed-in page: ${count(200)}× 200, ${count(503)}× 503 of ${report.result.length}, slowest ` +
        `${Math.max(...report.result.map((answer) => answer.ms)).toFixed(0)} ms; slow bodies answered ` +
        slow.map((answer) => `${answer.status || "closed"} after ${(answer.ms / 1000).toFixed(1)} s`).join(", "),
    );
  }

  if (attacks.has("page-bytes")) {
    const victim = await learner(server, `figures-victim-${process.pid}@example.test`);
    const pages = ["/account/home", "/account/statistics", "/account/settings"];
    for (const page of pages) await cachedPage(server, page, victim);
    const attacker = await learner(server, `figures-previews-${process.pid}@example.test`);
    const sizes: number[] = [];
    await measure("20 previews of large imports by one learner", async () => {
      for (let i = 0; i < 20; i++) sizes.push((await largePreview(server, attacker, i)).bytes);
    });
    let kept = 0;
    for (const page of pages) {
      const answer = await getPage(server, page, { Cookie: victim });
      if (String(answer.headers["content-security-policy"]).includes("'sha256-")) kept++;
    }
    console.log(
      `  each preview ${(Math.max(...sizes) / 1024).toFixed(0)} KB; the other learner's pages still answered from ` +
        `memory: ${kept} of ${pages.length}`,
    );
  }

  if (attacks.has("path-table")) {
    const attacker = await learner(server, `figures-paths-${process.pid}@example.test`);
    const terms: string[] = [];
    for (let i = 0; i < 140; i++) terms.push(await newTerm(server, attacker, `Wort${i}`));
    await measure("140 term pages of one learner", async () => {
      for (const term of terms) await getPage(server, term, { Cookie: attacker });
    });
    const other = await learner(server, `figures-paths-other-${process.pid}@example.test`);
    const own = await newTerm(server, other, "Tisch");
    console.log(`  another learner's new term page answered from memory: ${await cachedPage(server, own, other)}`);
  }

  if (attacks.has("anki-view")) {
    const { cookie } = await signInThroughLog(server, `figures-view-${process.pid}@example.test`);
    const apkg = recursiveViewDeck(14_000_000);
    const report = await measure(
      `Anki package of ${apkg.length} bytes, notes a recursive view of 14 million rows`,
      () => send(cookie, "view.apkg", "application/octet-stream", apkg),
    );
    console.log(`  answered ${report.result.status}`);
    if (report.result.status >= 500) throw new Error(`the package answered ${report.result.status}`);
  }

  if (attacks.has("fit-history")) {
    const { cookie } = await signInThroughLog(server, `figures-fit-${process.pid}@example.test`);
    const apkg = longHistoryDeck(15_000);
    const first = server.logs().length;
    const fitEnd = (line: { json?: Record<string, unknown> | null }) =>
      /^fsrs fit( failed|$)/.test(String(line.json?.message ?? ""));
    const report = await measure(
      `an Anki note of 15,000 reviews (${apkg.length} bytes): import, then its fit`,
      async () => {
        const { draft } = await upload(cookie, "long.apkg", "application/octet-stream", apkg);
        const confirmed = await post(
          "/account/import",
          cookie,
          "application/x-www-form-urlencoded",
          new URLSearchParams({ intent: "confirm", draft }).toString(),
        );
        if (confirmed.status >= 400) throw new Error(`confirm answered ${confirmed.status}`);
        const imported = performance.now();
        await server.waitForLog((line) => server.logs().indexOf(line) >= first && fitEnd(line), 600_000);
        return performance.now() - imported;
      },
    );
    const end = server.logs().slice(first).find(fitEnd);
    console.log(`  the fit ended ${(report.result / 1000).toFixed(1)} s after the import: ${end?.text}`);
  }
} finally {
  if (process.env.SERVER_LOG_FILE)
    (await import("node:fs")).writeFileSync(
      process.env.SERVER_LOG_FILE,
      server
        .logs()
        .map((line) => line.text)
        .join("\n"),
    );
  await server.stop();
}
