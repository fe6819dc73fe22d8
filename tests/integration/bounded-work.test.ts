/**
 * No request does work that grows without bound with what it sends, against the production server (`node server.ts`,
 * embedded database): every route that takes a body reads it through the one bounded reader, the attacks that once
 * froze the process are answered in well under a second while the event loop stays free, and caches, maps, imports,
 * exports and paths cannot be made to hold or store what an attacker chooses. Needs `npm run build`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookiesOf, getPage, postForm, rawRequest, signInThroughLog, type RawResponse } from "../support/raw-http.ts";
import { largeDeck, longHistoryDeck, recursiveViewDeck } from "../support/anki-files.ts";
import { deckWithSounds } from "../support/sound-files.ts";
import { loopDuring, processCpuMs, type LoopReport } from "../support/loop-watch.ts";
import { BROWSER_USER_AGENT, PROJECT_ROOT, startServer, type ServerProcess } from "../support/server-process.ts";

let server: ServerProcess;
let cookie: string;
let termId: string;
let textId: string;

/** Every route with an action, with its path as the manifest of the build names it (`/:lang?/account/terms/:id`). */
function actionRoutes(): Map<string, string> {
  const dir = path.join(PROJECT_ROOT, "build", "client", "assets");
  const file = readdirSync(dir).find((name) => /^manifest-[\w-]+\.js$/.test(name))!;
  const source = readFileSync(path.join(dir, file), "utf8");
  const manifest = JSON.parse(source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "")) as {
    routes: Record<string, { id: string; parentId?: string; path?: string; hasAction: boolean }>;
  };
  const routes = new Map<string, string>();
  for (const route of Object.values(manifest.routes)) {
    if (!route.hasAction) continue;
    const segments: string[] = [];
    for (let at: typeof route | undefined = route; at; at = at.parentId ? manifest.routes[at.parentId] : undefined)
      if (at.path) segments.unshift(at.path);
    routes.set(route.id, `/${segments.join("/")}`);
  }
  return routes;
}

/** The concrete address each route pattern is posted to (ids of the learner's own term and text). */
function concrete(pattern: string): string {
  return pattern
    .replace("/:lang?", "")
    .replace("/account/terms/:id", `/account/terms/${termId}`)
    .replace("/account/texts/:id", `/account/texts/${textId}`)
    .replace("/texts/:slug", "/texts/de-der-markt")
    .replace("/*", "/no-such/page");
}

const post = (
  target: string,
  type: string,
  body: string | Buffer,
  chunked = false,
  asLearner = cookie,
  timeoutMs?: number,
): Promise<RawResponse> =>
  rawRequest(server, {
    timeoutMs,
    method: "POST",
    path: target,
    headers: {
      "User-Agent": BROWSER_USER_AGENT,
      Origin: server.baseUrl,
      "Content-Type": type,
      Accept: "text/html",
      Cookie: asLearner,
    },
    body,
    chunked,
  });

/** Uploads a file to the import as the page's form does, and opens the preview it leads to. */
async function uploadForPreview(fileName: string, type: string, content: string) {
  const boundary = "----bounded";
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    `Content-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  const uploaded = await post("/account/import", `multipart/form-data; boundary=${boundary}`, body);
  expect(uploaded.status, uploaded.body.slice(0, 300)).toBe(303);
  const location = String(uploaded.headers.location);
  const preview = await getPage(server, location, { Cookie: cookie });
  return { preview, draft: new URL(location, server.baseUrl).searchParams.get("draft")! };
}

/** The server's resident memory, from /proc. */
function rssMiB(): number {
  const status = readFileSync(`/proc/${server.pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024;
}

/**
 * No turn of the server's event loop was held for more than LOOP_BOUND_MS by its own CPU while the attack ran, and the
 * liveness probe answered throughout (a wait for a core on the busy test machine is not held by the server).
 */
function expectLoopFree(attack: string, report: LoopReport) {
  console.log(
    `${attack}: answered in ${report.wallMs.toFixed(0)} ms (${report.cpuMs.toFixed(0)} ms of server CPU); longest ` +
      `turn held ${report.heldMs} ms, longest delay ${report.delayMs} ms; ${report.probes.length} probes, slowest ` +
      `${Math.max(...report.probes).toFixed(0)} ms`,
  );
  expect(report.blocked, attack).toEqual([]);
  expect(report.probeFailures, attack).toEqual([]);
  expect(report.probes.length, attack).toBeGreaterThan(0);
}

/** Streams `totalBytes` in chunks without a length and resolves with the status and the time the answer took. */
function streamChunked(target: string, totalBytes: number): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  let answered = false;
  return new Promise((resolve, reject) => {
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
        // Answered: the time to the status line, not to the end of the client's own writing.
        answered = true;
        const ms = performance.now() - started;
        res.resume();
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, ms });
          req.destroy();
        });
      },
    );
    // The server closes the connection a little after its 413: writes after that fail, as they should. A reset
    // before the answer arrived is a lost 413 (the server closed with unread bytes): that fails the test.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (!answered || (error.code !== "EPIPE" && error.code !== "ECONNRESET")) reject(error);
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

/** A page answered from memory carries script hashes in its CSP instead of a per-response nonce. */
const fromMemory = (response: RawResponse) => String(response.headers["content-security-policy"]).includes("'sha256-");

/** The page once it is kept (compressing it for memory takes a moment after the answer that drew it). */
async function keptPage(target: string, sessionCookie?: string): Promise<RawResponse> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await getPage(server, target, sessionCookie ? { Cookie: sessionCookie } : {});
    expect(response.status).toBe(200);
    if (fromMemory(response)) return response;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const last = await getPage(server, target, sessionCookie ? { Cookie: sessionCookie } : {});
  throw new Error(`${target} was never answered from memory: ${JSON.stringify(last.headers)}`);
}

beforeAll(async () => {
  server = await startServer();
  ({ cookie } = await signInThroughLog(server, `bounded-${process.pid}@example.test`));
  const term = await post(
    "/account/terms/new",
    "application/x-www-form-urlencoded",
    new URLSearchParams({ text: "der Tisch", meaning: "the table", partOfSpeech: "noun" }).toString(),
  );
  termId = String(term.headers.location).split("/").pop()!;
  const text = await post(
    "/account/texts/new",
    "application/x-www-form-urlencoded",
    new URLSearchParams({ title: "Kurz", body: "Der Tisch ist groß." }).toString(),
  );
  textId = String(text.headers.location).split("/").pop()!.split("?")[0]!;
  expect(termId).toMatch(/\w/);
  expect(textId).toMatch(/\w/);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("every route that takes a body reads it through the bounded reader", () => {
  const routes = actionRoutes();

  it("knows every route with an action (a new one must be added here)", () => {
    expect([...routes.values()].sort()).toEqual(
      [
        "/:lang?/*",
        "/:lang?/account/billing",
        "/:lang?/account/explore/public",
        "/:lang?/account/home",
        "/:lang?/account/import",
        "/:lang?/account/player",
        "/:lang?/account/profile",
        "/:lang?/account/profile/delete",
        "/:lang?/account/review",
        "/:lang?/account/review/sync",
        "/:lang?/account/settings",
        "/:lang?/account/terms/:id",
        "/:lang?/account/terms/new",
        "/:lang?/account/texts/:id",
        "/:lang?/account/texts/new",
        "/:lang?/confirm",
        "/:lang?/crowdfunding-campaign",
        "/:lang?/explore",
        "/:lang?/form",
        "/:lang?/logout",
        "/:lang?/subscription",
        "/:lang?/texts/:slug",
        "/basic-mode",
        "/locale",
        "/preferences",
        "/theme",
        "/webhooks/stripe",
      ].sort(),
    );
  });

  // The catch-all, the webhook (404 while payments are not configured, as here) and the offline review's sync (a
  // device's JSON endpoint, no page) are checked on their own below.
  const ownChecks = new Set(["/:lang?/*", "/webhooks/stripe", "/:lang?/account/review/sync"]);
  const cases = [...routes.values()].filter((pattern) => !ownChecks.has(pattern));
  it.each(cases)("%s: a chunked body past the limit is refused with 413, whatever comes after", async (pattern) => {
    const target = concrete(pattern);
    const limit = target === "/account/import" ? 5 * 1024 * 1024 : 64 * 1024;
    const response = await post(target, "application/x-www-form-urlencoded", `x=${"a".repeat(limit + 1024)}`, true);
    expect(response.status, target).toBe(413);
  });

  it.each(cases)("%s: JSON, text and broken multipart bodies get the translated 415/400 page", async (pattern) => {
    // Pages with a locale prefix answer in its language; the footer's and the switch's targets have none.
    const [target, lang] = pattern.startsWith("/:lang?") ? [`/de${concrete(pattern)}`, "de"] : [pattern, "en"];
    const bodies: [string, string, number][] = [
      ["application/json", '{"theme":"dark"}', 415],
      ["text/plain", "theme=dark", 415],
      ["multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-da", 400],
    ];
    for (const [type, body, status] of bodies) {
      const response = await post(target, type, body);
      expect(response.status, `${type} to ${target}`).toBe(status);
      expect(response.headers["content-type"], target).toMatch(/^text\/html/);
      expect(response.body, target).toContain(`<html lang="${lang}"`);
    }
  });

  it("answers the offline review's sync with 413, 415 or 400 as the other routes do, without a page", async () => {
    expect(
      (await post("/de/account/review/sync", "application/x-www-form-urlencoded", "x".repeat(70 * 1024), true)).status,
    ).toBe(413);
    expect((await post("/de/account/review/sync", "application/json", "[]")).status).toBe(415);
    expect((await post("/de/account/review/sync", "text/plain", "grades=[]")).status).toBe(415);
  });

  it("answers the catch-all's POST with the 404 page, whatever the body", async () => {
    for (const type of ["application/json", "text/plain", "application/x-www-form-urlencoded"])
      expect((await post("/no-such/page", type, "{}")).status).toBe(404);
  });

  it("answers the webhook, while payments are not configured, with 404 before reading any body", async () => {
    const response = await rawRequest(server, {
      method: "POST",
      path: "/webhooks/stripe",
      headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00" },
      body: `{"x":"${"a".repeat(70 * 1024)}"}`,
      chunked: true,
    });
    expect(response.status).toBe(404);
  });
});

describe("the attacks that once froze the process", () => {
  it("answers a 200 MiB chunked body to /theme with 413 within a second, memory and event loop untouched", async () => {
    // A first ordinary choice: what is measured below is the attack, not the first use of the route's code.
    await post("/theme", "application/x-www-form-urlencoded", "theme=dark&redirectTo=%2F");
    const before = rssMiB();
    const report = await loopDuring(server, () => streamChunked("/theme", 200 * 1024 * 1024));
    expect(report.result.status).toBe(413);
    expect(Math.min(report.result.ms, report.cpuMs)).toBeLessThan(1_000);
    expect(rssMiB() - before).toBeLessThan(64);
    expectLoopFree("200 MiB to /theme", report);
  }, 60_000);

  it("twelve bodies of 16 MiB at once: each refused, memory stays put", async () => {
    const before = rssMiB();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => streamChunked(i % 2 ? "/theme" : "/basic-mode", 16 * 1024 * 1024)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(413));
    expect(rssMiB() - before).toBeLessThan(64);
  }, 60_000);

  it("previews an Anki file of 200,000 unclosed tags (or sound references) in under a second, loop free", async () => {
    // A first ordinary upload: what is measured below is the attack, not the first use of the page's code.
    await uploadForPreview("warm.txt", "text/plain", "#separator:tab\n#html:true\nKatze\tcat\n");
    for (const cell of ["<".repeat(200_000), "[sound:".repeat(30_000), "<b>".repeat(60_000)]) {
      const content = `#separator:tab\n#html:true\n${cell}\tmeaning\nHund\tdog\n`;
      const report = await loopDuring(server, () => uploadForPreview("deck.txt", "text/plain", content));
      expect(report.serverMs, cell.slice(0, 10)).toBeLessThan(1_000);
      expectLoopFree(`Anki cell ${cell.slice(0, 10)}`, report);
      // The overlong cell is a skipped row with its line number; the good row is still offered.
      expect(report.result.preview.status).toBe(200);
      expect(report.result.preview.body).toContain("Hund");
    }
  });
});

describe("Anki packages that bring their own SQL or a history without end", () => {
  /** A package uploaded as the import's form sends it, with `asLearner`'s session. */
  const uploadPackage = (bytes: Buffer, asLearner: string) => {
    const boundary = "----package";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="deck.apkg"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    return post("/account/import", `multipart/form-data; boundary=${boundary}`, body, false, asLearner);
  };

  it("refuses a 1 KB package whose notes are a recursive view of 14 million rows with 422 at once, loop free", async () => {
    const { cookie: learner } = await signInThroughLog(server, `bounded-view-${process.pid}@example.test`);
    const apkg = recursiveViewDeck(14_000_000);
    expect(apkg.length).toBeLessThan(1_100);
    const report = await loopDuring(server, () => uploadPackage(apkg, learner));
    expect(report.result.status).toBe(422);
    expect(report.result.body).toContain("are not plain tables");
    expect(report.serverMs).toBeLessThan(1_000);
    expectLoopFree("a package whose notes are a recursive view", report);
  }, 60_000);

  it("imports a note of 15,000 reviews as its newest 1,000, and its fit reads 64 of them, loop free", async () => {
    const { cookie: learner } = await signInThroughLog(server, `bounded-history-${process.pid}@example.test`);
    const first = server.logs().length;
    const report = await loopDuring(server, async () => {
      const uploaded = await uploadPackage(longHistoryDeck(15_000), learner);
      expect(uploaded.status, uploaded.body.slice(0, 300)).toBe(303);
      const location = String(uploaded.headers.location);
      const preview = await getPage(server, location, { Cookie: learner });
      expect(preview.body).toContain("14,000 older reviews were left out: each note keeps its newest 1,000.");
      const draft = new URL(location, server.baseUrl).searchParams.get("draft")!;
      const form = new URLSearchParams({ intent: "confirm", draft }).toString();
      const confirmed = await post("/account/import", "application/x-www-form-urlencoded", form, false, learner);
      expect(confirmed.status).toBeLessThan(400);
      // The background fit the import asks for, a few seconds later: its end is logged.
      return server.waitForLog(
        (line) => server.logs().indexOf(line) >= first && /^fsrs fit( failed|$)/.test(String(line.json?.message)),
        60_000,
      );
    });
    expect(report.result.json?.message).toBe("fsrs fit");
    expectLoopFree("a note of 15,000 reviews, imported and fitted", report);
  }, 120_000);
});

describe("an import of the largest file accepted", () => {
  it("keeps and previews a 5 MB file while every turn of the event loop stays under 100 ms", async () => {
    const rows = Array.from({ length: 19_000 }, (_, n) => `large${n},${"m".repeat(260)}`);
    const csv = ["term,meaning", ...rows].join("\n");
    expect(csv.length).toBeGreaterThan(4.9 * 1024 * 1024);
    expect(csv.length).toBeLessThan(5 * 1024 * 1024 - 1024);
    const report = await loopDuring(server, () => uploadForPreview("large.csv", "text/csv", csv));
    expect(report.result.preview.status).toBe(200);
    expect(report.result.preview.body).toContain("large0");
    expect(report.serverMs).toBeLessThan(2_000);
    expectLoopFree("a 5 MB import", report);
  }, 120_000);
});

describe("the reader's text list of a learner with many long texts and terms", () => {
  const TEXTS = 200;
  const TERMS = 20_000;
  /** The note above the list while texts are being counted (its words are also in the page's translations). */
  const STILL_COUNTING = /Still counting the words of [\d,]+ texts?:/;
  const WORDS = ["park", "quiet", "rain", "cream", "river", "house", "garden", "letter", "street", "window"];
  /** The text of term n, letters only (a word holds no digits): w + n with a for 0, b for 1… */
  const termText = (n: number) => `w${String(n).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}`;
  /** A text of many short lines (the slowest shape for the segmenter): about 1,500 lines, 30 KB. */
  const manyLines = (seed: number) => {
    const lines: string[] = [];
    for (let i = 0, length = 0; length < 30_000; i++) {
      const line = `${WORDS[(seed + i) % 10]} ${termText((seed * 31 + i * 7) % TERMS)} ${WORDS[(i * 3) % 10]}.`;
      lines.push(line);
      length += line.length + 1;
    }
    return lines.join("\n");
  };

  it("imports the terms and answers every request for the list within a second while its texts are counted, the loop free", async () => {
    const reader = await signInThroughLog(server, `bounded-reader-${process.pid}@example.test`);
    const as = (target: string, type: string, body: string) => post(target, type, body, false, reader.cookie);
    // The terms through the import, as a learner brings them: their preview and import keep the loop free too.
    const csv = ["term,meaning", ...Array.from({ length: TERMS }, (_, n) => `${termText(n)},m`)].join("\n");
    const boundary = "----reader";
    const importing = await loopDuring(server, async () => {
      const uploaded = await as(
        "/account/import",
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="terms.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      );
      expect(uploaded.status).toBe(303);
      const preview = await getPage(server, String(uploaded.headers.location), { Cookie: reader.cookie });
      expect(preview.status).toBe(200);
      const draft = new URL(String(uploaded.headers.location), server.baseUrl).searchParams.get("draft")!;
      return as(
        "/account/import",
        "application/x-www-form-urlencoded",
        new URLSearchParams({ intent: "confirm", draft }).toString(),
      );
    });
    expect(importing.result.status, importing.result.body.slice(0, 300)).toBeLessThan(400);
    expectLoopFree(`the import of ${TERMS} terms`, importing);
    // The texts through the form, each segmented as it is written: a long text of short lines is the segmenter's
    // slowest, and posting one keeps the loop free too.
    const posting = await loopDuring(server, async () => {
      for (let i = 0; i < TEXTS; i++) {
        const text = await as(
          "/account/texts/new",
          "application/x-www-form-urlencoded",
          new URLSearchParams({ title: `Text ${String(i).padStart(3, "0")}`, body: manyLines(i) }).toString(),
        );
        expect(text.status).toBe(302);
      }
    });
    expectLoopFree(`posting ${TEXTS} texts of 1,500 lines`, posting);

    const times: string[] = [];
    let html = "";
    const report = await loopDuring(server, async () => {
      for (let round = 0; round < 200; round++) {
        const started = performance.now();
        const cpu = processCpuMs(server.pid);
        const response = await getPage(server, "/account/texts", { Cookie: reader.cookie });
        const wall = performance.now() - started;
        const cpuMs = processCpuMs(server.pid) - cpu;
        expect(response.status).toBe(200);
        // Counted as the server's time: its wall time, unless it used less CPU (the machine kept it waiting).
        expect(Math.min(wall, cpuMs), `request ${round}: ${wall.toFixed(0)} ms, ${cpuMs} ms of CPU`).toBeLessThan(
          1_000,
        );
        times.push(`${wall.toFixed(0)} ms (${cpuMs} ms CPU)`);
        html = response.body;
        if (!STILL_COUNTING.test(html)) return;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    console.log(`the list of ${TEXTS} texts with ${TERMS} terms: ${times.join(", ")}`);
    expectLoopFree("the text list", report);
    expect(html).not.toMatch(STILL_COUNTING);
    expect(html.match(/href="\/account\/texts\/[0-9a-f-]{36}"/g)?.length).toBe(20);
    expect(html).toContain('href="/account/texts?page=2"');

    // The same learner's 20,000 terms leave as JSON, CSV and an Anki package, each read a page of terms at a time.
    // A shared Anki deck of 20,000 notes with 5 reviews each: upload, preview and confirm (the reviews replayed).
    const deck = await signInThroughLog(server, `bounded-deck-${process.pid}@example.test`);
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.apkg"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), largeDeck(TERMS, 5), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = await loopDuring(server, () =>
      post("/account/import", `multipart/form-data; boundary=${boundary}`, body, false, deck.cookie),
    );
    expect(up.result.status, up.result.body.slice(0, 300)).toBe(303);
    expectLoopFree(`the upload of an Anki deck of ${TERMS} notes with 5 reviews each`, up);
    const location = String(up.result.headers.location);
    const pv = await loopDuring(server, () => getPage(server, location, { Cookie: deck.cookie }));
    expect(pv.result.status).toBe(200);
    expectLoopFree("its preview", pv);
    const draft = new URL(location, server.baseUrl).searchParams.get("draft")!;
    const cf = await loopDuring(server, () =>
      post(
        "/account/import",
        "application/x-www-form-urlencoded",
        new URLSearchParams({ intent: "confirm", draft }).toString(),
        false,
        deck.cookie,
        // What is bounded here is the event loop, not the import: 20,000 notes and 100,000 reviews written in one
        // transaction took 38 s (40 s of CPU) on the 2-core machine when it ran slow, past the usual 30 s.
        180_000,
      ),
    );
    expect(cf.result.status, cf.result.body.slice(0, 300)).toBeLessThan(400);
    expectLoopFree("its import, the reviews replayed", cf);

    for (const format of ["json", "csv", "apkg"]) {
      const exporting = await loopDuring(server, () =>
        getPage(server, `/account/export?format=${format}`, { Cookie: reader.cookie }),
      );
      expect(exporting.result.status, `${format} export`).toBe(200);
      expectLoopFree(`the ${format} export of ${TERMS} terms`, exporting);
    }
  }, 400_000);
});

describe("caches that cannot be flooded", () => {
  it("counts a junk theme, study-language or basic-mode cookie as absent: one cache entry, not one per value", async () => {
    const plain = await keptPage("/explore");
    for (let i = 0; i < 30; i++) {
      const junk = `theme=junk${i}; studyLanguage=xx${i}.sig; basicMode=${"z".repeat(i + 1)}`;
      const response = await getPage(server, "/explore", { Cookie: junk });
      expect(response.status).toBe(200);
      // The kept page answers: the same entity tag as the page without cookies.
      expect(fromMemory(response)).toBe(true);
      expect(response.headers.etag).toBe(plain.headers.etag);
    }
  });

  it("keeps another learner's page while one learner requests ?junk=N without end", async () => {
    const other = await signInThroughLog(server, `bounded-other-${process.pid}@example.test`);
    // The first page sets the study-language cookie a browser then sends along.
    const first = await getPage(server, "/account/home", { Cookie: other.cookie });
    const otherCookie = [other.cookie, ...[...cookiesOf(first)].map(([name, value]) => `${name}=${value}`)].join("; ");
    await keptPage("/account/home", otherCookie);
    // Bounded per learner (tests/unit/edge/owner-bounded-cache.test.ts floods it 10,000 times): a few dozen here, drawn for real.
    for (let i = 0; i < 40; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, j) => getPage(server, `/account/home?junk=${i + j}`, { Cookie: cookie })),
      );
    const again = await getPage(server, "/account/home", { Cookie: otherCookie });
    expect(again.status).toBe(200);
    expect(fromMemory(again)).toBe(true);
  }, 60_000);
});

describe("a shared deck with its sounds", () => {
  // Issue 57's budget: 20,000 notes with 2,000 sounds (about 60 MB) import on the embedded database within 2 min of
  // the server's time, with no turn of the event loop over 100 ms; the package goes out again with its sounds.
  const NOTES = 20_000;
  const SOUNDS = 2_000;
  it(`imports ${NOTES} notes with ${SOUNDS} sounds within its budget and exports them again`, async () => {
    const boundary = "----sounds-boundary";
    const learner = await signInThroughLog(server, `bounded-sounds-${process.pid}@example.test`);
    const deck = deckWithSounds(NOTES, SOUNDS, 30_000);
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="core.apkg"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), deck, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = await loopDuring(server, () =>
      post("/account/import", `multipart/form-data; boundary=${boundary}`, body, false, learner.cookie, 180_000),
    );
    expect(up.result.status, up.result.body.slice(0, 300)).toBe(303);
    expectLoopFree(`the upload of a deck of ${NOTES} notes and ${SOUNDS} sounds (${deck.length} bytes)`, up);
    const location = String(up.result.headers.location);
    const pv = await loopDuring(server, () => getPage(server, location, { Cookie: learner.cookie }));
    expect(pv.result.body).toContain("2,000 sounds are kept with their terms.");
    expectLoopFree("its preview", pv);
    const draft = new URL(location, server.baseUrl).searchParams.get("draft")!;
    const cf = await loopDuring(server, () =>
      post(
        "/account/import",
        "application/x-www-form-urlencoded",
        new URLSearchParams({ intent: "confirm", draft }).toString(),
        false,
        learner.cookie,
        180_000,
      ),
    );
    expect(cf.result.status, cf.result.body.slice(0, 300)).toBeLessThan(400);
    expectLoopFree("its import", cf);
    expect(up.serverMs + pv.serverMs + cf.serverMs).toBeLessThan(120_000);
    const exporting = await loopDuring(server, () =>
      rawRequest(server, {
        path: "/account/export?format=apkg",
        headers: { Cookie: learner.cookie },
        timeoutMs: 180_000,
      }),
    );
    expect(exporting.result.status).toBe(200);
    expectLoopFree(`the apkg export of ${NOTES} terms and ${SOUNDS} sounds`, exporting);
  }, 600_000);
});

describe("imports cannot store what later breaks a page", () => {
  const jsonImport = (term: Record<string, unknown>) => {
    const base = {
      language: "en",
      text: `range-${Math.random()}`,
      meaning: "m",
      partOfSpeech: "noun",
      notes: "",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      examples: [],
      reviews: [],
    };
    const card = {
      due: "2026-01-02T00:00:00.000Z",
      stability: 1,
      difficulty: 5,
      elapsedDays: 0,
      scheduledDays: 1,
      learningSteps: 0,
      reps: 1,
      lapses: 0,
      state: 2,
      lastReview: "2026-01-01T00:00:00.000Z",
    };
    const { card: cardChanges, ...termChanges } = term as { card?: Record<string, unknown> };
    return JSON.stringify({
      format: "polyglot-export",
      version: 1,
      terms: [{ ...base, ...termChanges, card: { ...card, ...cardChanges } }],
    });
  };

  it.each([
    ["elapsedDays 3,000,000,000", { card: { elapsedDays: 3_000_000_000 } }],
    ["scheduledDays 100,000,000", { card: { scheduledDays: 100_000_000 } }],
    ["a year-0 due date", { card: { due: "0000-01-01T00:00:00.000Z" } }],
    [
      "a review in year 275760",
      { reviews: [{ rating: 3, state: 2, reviewedAt: "+275760-01-01T00:00:00.000Z", scheduledDays: 1 }] },
    ],
  ])("refuses %s as a skipped entry, not a 500, and logs no row", async (_name, change) => {
    const started = server.logs().length;
    const { preview, draft } = await uploadForPreview("export.json", "application/json", jsonImport(change));
    expect(preview.status).toBe(200);
    const confirmed = await post(
      "/account/import",
      "application/x-www-form-urlencoded",
      new URLSearchParams({ intent: "confirm", draft }).toString(),
    );
    expect(confirmed.status).toBeLessThan(500);
    expect(
      server
        .logs()
        .slice(started)
        .filter((line) => line.json?.level === "error"),
    ).toEqual([]);
    expect((await getPage(server, "/account/statistics", { Cookie: cookie })).status).toBe(200);
  });
});

describe("CSV exports are safe in a spreadsheet and come back unchanged", () => {
  it("prefixes formula cells with an apostrophe and imports them back as they were", async () => {
    const formula = '=HYPERLINK("http://evil.example","x")';
    const created = await post(
      "/account/terms/new",
      "application/x-www-form-urlencoded",
      new URLSearchParams({ text: formula, meaning: "+1", notes: "@sum", partOfSpeech: "noun" }).toString(),
    );
    expect(created.status).toBe(302);
    const csv = await getPage(server, "/account/export?format=csv", { Cookie: cookie });
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(csv.body).toContain(",'+1,");
    expect(csv.body).toContain(",'@sum,");
    expect(csv.body).not.toMatch(/(^|,)[=+@]/m);
  });
});

describe("one letter case for paths", () => {
  it.each([
    ["/ACCOUNT/PLAYER", "/account/player"],
    ["/ACCOUNT/PROFILE", "/account/profile"],
    ["/Account/Home?x=1", "/account/home?x=1"],
    ["/EXPLORE", "/explore"],
    ["/de/Account/texts", "/de/account/texts"],
  ])("sends %s to %s before any guard, signed out and signed in", async (target, lower) => {
    for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
      const response = await getPage(server, target, headers);
      expect(response.status).toBe(301);
      expect(response.headers.location).toBe(lower);
    }
  });

  it("never renders a page under another letter case: the router's routes are case-sensitive", async () => {
    // A form POST keeps its path (no redirect for it): the router matches no page, so the guard never runs for it.
    const response = await post("/ACCOUNT/SETTINGS", "application/x-www-form-urlencoded", "intent=settings");
    expect(response.status).toBe(404);
  });

  it("keeps /CONFIRM?token=… out of every cache and off other sites", async () => {
    const response = await getPage(server, "/CONFIRM?token=abc");
    expect(response.status).toBe(301);
    expect(response.headers.location).toBe("/confirm?token=abc");
    expect(response.headers["cache-control"]).toBe("private, no-store");
    for (const offSite of ["//Evil.example/X", "/\\Evil.example/X"]) {
      const away = await getPage(server, offSite);
      expect(away.headers.location, offSite).toBeUndefined();
    }
  });
});

describe("time zones", () => {
  it("stores a zone in its canonical spelling whatever the letter case sent", async () => {
    const response = await postForm(
      server,
      "/account/settings",
      { intent: "browserTimeZone", timeZone: "europe/BERLIN" },
      { Cookie: cookie },
    );
    expect(response.status).toBeLessThan(400);
    const page = await getPage(server, "/account/settings", { Cookie: cookie });
    expect(page.body).toMatch(/<option value="Europe\/Berlin" selected=""/);
  });
});
