/**
 * The figures of issue 20's three high findings, measured on the production build (`npm run build` first, then
 * `npm run attack-figures`): for each attack, how long its answer took (wall time and the server's CPU time),
 * the longest turn of the event loop the server held by its own CPU meanwhile, and the server's resident memory before
 * the attack and at its peak (read from /proc every 20 ms).
 *
 * 1. a 300 MiB chunked body to /theme, then twelve parallel chunked bodies of 400 MiB to /theme and /basic-mode;
 * 2. an Anki plain-text file with `#html:true` and a cell of 200,000 `<`;
 * 3. a learner with 20,000 terms (through the import) and 210 texts of 30 KB in 1,500 short lines (through the form),
 *    then `/account/texts` until every text is counted.
 *
 * 4. `anki-view`: an Anki package of about 1 KB whose `notes` is a recursive view of 14 million rows;
 * 5. `fit-history`: an Anki package with one card of 15,000 reviews, imported, then the background FSRS fit it asks
 *    for (timed until the server logs the fit's end).
 *
 * Knobs: ATTACKS (`bodies,anki,texts,anki-view,fit-history`, any of them), SERVER_NODE_OPTIONS (e.g. `--trace-gc`, `--cpu-prof`).
 * Not part of `npm test`: its figures depend on the machine.
 */
import { readFileSync } from "node:fs";
import { longHistoryDeck, recursiveViewDeck } from "../tests/support/anki-files.ts";
import { request } from "node:http";
import { getPage, rawRequest, signInThroughLog, type RawResponse } from "../tests/support/raw-http.ts";
import { loopDuring, processCpuMs, type LoopReport } from "../tests/support/loop-watch.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../tests/support/server-process.ts";

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
