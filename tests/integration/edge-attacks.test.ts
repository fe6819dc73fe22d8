/**
 * Issue 51's attacks on the edge, against the production server (`node server.ts`, embedded database): slow request
 * bodies hold no working slot and are answered 408 in time, one learner's large pages do not push out other learners'
 * pages, and one learner's many term pages do not keep other learners' pages out of memory. Each runs while the event
 * loop stays free and no request is answered with a 5xx. Needs `npm run build`.
 */
import { BODIES_PER_CLIENT } from "../../app/edge/body-admission.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPage, postForm, rawRequest, type RawResponse } from "../support/raw-http.ts";
import { cachedPage, fromMemory, largePreview, learner, newTerm, slowBodies } from "../support/edge-attacks.ts";
import { loopDuring, LOOP_BOUND_MS, type LoopReport } from "../support/loop-watch.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

let server: ServerProcess;

beforeAll(async () => {
  server = await startServer();
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

function expectLoopFree(report: LoopReport) {
  expect(report.blocked).toEqual([]);
  expect(report.heldMs).toBeLessThan(LOOP_BOUND_MS);
  expect(report.probeFailures).toEqual([]);
}

const statusesOf = (answers: { status: number }[]) => answers.map((answer) => answer.status);

describe("slow request bodies", () => {
  it("hold no working slot: a signed-in learner is answered throughout, the slow ones 408 in time", async () => {
    const cookie = await learner(server, `slow-bodies-${process.pid}@example.test`);
    expect((await getPage(server, "/account/statistics", { Cookie: cookie })).status).toBe(200);
    // Eight bodies from one client: seven announcing 60,000 bytes at a byte a second, one in German.
    const attack = slowBodies(server, 7);
    const german = rawRequest(server, {
      method: "POST",
      path: "/de/form",
      headers: {
        "User-Agent": BROWSER_USER_AGENT,
        Origin: server.baseUrl,
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": "60000",
      },
      holdBody: true,
    });
    try {
      const report = await loopDuring(server, async () => {
        const answered = Promise.all(attack.answers);
        const attackOver = { done: false };
        void answered.then(() => (attackOver.done = true));
        const pages: { status: number; ms: number }[] = [];
        while (!attackOver.done) {
          const at = performance.now();
          const page = await getPage(server, "/account/statistics", { Cookie: cookie });
          pages.push({ status: page.status, ms: performance.now() - at });
        }
        return { pages, slow: await answered };
      });
      const { pages, slow } = report.result;
      expect(new Set(statusesOf(pages))).toEqual(new Set([200]));
      // Each in a few milliseconds on a quiet machine; the bound leaves room for a busy one (it was 30 s).
      expect(Math.max(...pages.map((page) => page.ms))).toBeLessThan(5_000);
      expect(statusesOf(slow)).toEqual(Array(7).fill(408));
      expect(Math.max(...slow.map((answer) => answer.ms))).toBeLessThan(20_000);
      expectLoopFree(report);
    } finally {
      attack.stop();
    }
    const translated: RawResponse = await german;
    expect(translated.status).toBe(408);
    expect(translated.headers.connection).toBe("close");
    expect(translated.body).toContain("<h1>Das Formular kam zu langsam an</h1>");
  }, 60_000);

  it("answers a client's body past its share 429 at once, and a form sent whole as usual", async () => {
    const attack = slowBodies(server, BODIES_PER_CLIENT);
    try {
      // They are all being received once one more from the same address is refused.
      let oneMore = await postForm(server, "/theme", { theme: "dark", redirectTo: "/" });
      for (let i = 0; i < 50 && oneMore.status !== 429; i++)
        oneMore = await postForm(server, "/theme", { theme: "dark", redirectTo: "/" });
      expect(oneMore.status).toBe(429);
      expect(oneMore.body).toContain("Too many requests are arriving at once right now.");
    } finally {
      attack.stop();
    }
    await Promise.all(attack.answers);
    // Its bodies gone, the client's forms are read again (a redirect to where the form was sent from).
    let after = await postForm(server, "/theme", { theme: "dark", redirectTo: "/" });
    for (let i = 0; i < 50 && after.status === 429; i++)
      after = await postForm(server, "/theme", { theme: "dark", redirectTo: "/" });
    expect(after.status).toBe(302);
  }, 60_000);

  it("answers a form whose body arrives whole before it is admitted, in chunks or by length, empty or not", async () => {
    const headers = {
      "User-Agent": BROWSER_USER_AGENT,
      Origin: server.baseUrl,
      "Content-Type": "application/x-www-form-urlencoded",
    };
    const post = (body: string, chunked: boolean) =>
      rawRequest(server, { method: "POST", path: "/theme", headers, body, chunked, timeoutMs: 10_000 });
    // An empty body in chunks once ended the request's stream before the app read it: it was never answered.
    expect((await post("", true)).status).toBeLessThan(500);
    expect((await post("theme=dark&redirectTo=%2F", true)).status).toBe(302);
    expect((await post("", false)).status).toBeLessThan(500);
    expect((await post("theme=dark&redirectTo=%2F", false)).status).toBe(302);
  }, 60_000);
});

describe("one learner's pages kept in memory", () => {
  it("a few very large ones (import previews) do not push out another learner's pages", async () => {
    const victim = await learner(server, `victim-${process.pid}@example.test`);
    const pages = ["/account/home", "/account/statistics", "/account/settings"];
    for (const page of pages) expect(await cachedPage(server, page, victim), page).toBe(true);
    const attacker = await learner(server, `previews-${process.pid}@example.test`);
    const report = await loopDuring(server, async () => {
      const previews = [];
      for (let i = 0; i < 20; i++) previews.push(await largePreview(server, attacker, i));
      return previews;
    });
    expectLoopFree(report);
    // Each long cell is echoed cut, with an ellipsis.
    const preview = await getPage(server, report.result.at(-1)!.location, { Cookie: attacker });
    expect(preview.body).toMatch(/column 19 0 x+…/);
    expect(Math.max(...report.result.map((page) => page.bytes))).toBeLessThan(100_000);
    for (const page of pages) expect(fromMemory(await getPage(server, page, { Cookie: victim })), page).toBe(true);
  }, 120_000);

  it("140 term pages do not keep another learner's new pages out of memory", async () => {
    const attacker = await learner(server, `paths-${process.pid}@example.test`);
    const terms: string[] = [];
    for (let i = 0; i < 140; i++) terms.push(await newTerm(server, attacker, `Wort${i}`));
    const report = await loopDuring(server, async () => {
      for (const term of terms) expect((await getPage(server, term, { Cookie: attacker })).status).toBe(200);
    });
    expectLoopFree(report);
    const other = await learner(server, `paths-other-${process.pid}@example.test`);
    expect(await cachedPage(server, await newTerm(server, other, "Tisch"), other)).toBe(true);
    const text = await postForm(
      server,
      "/account/texts/new",
      { title: "Kurz", body: "Der Tisch ist groß." },
      { Cookie: other },
    );
    expect(text.status).toBe(302);
    const textPath = new URL(String(text.headers.location), server.baseUrl).pathname;
    expect(await cachedPage(server, textPath, other)).toBe(true);
  }, 120_000);
});
