/**
 * Load shedding: with MAX_REQUESTS_IN_FLIGHT requests in flight, the production server answers the next one at once
 * with 503 and Retry-After — a translated page for a document (German and English here), a short text for `.data` —
 * while /healthz and static files still answer; once the requests in flight end, pages are served again. Under a
 * scaled-down overload (the budget of `scripts/bench/overload.ts` is 200 connections for 15 s) a signed-in page is
 * answered 200 or 503 only, none waits 10 s, and /healthz keeps answering.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { request } from "node:http";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdRequests } from "../support/held-requests.ts";
import { getPage, rawRequest, signInThroughLog } from "../support/raw-http.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

type Autocannon = (options: object) => Promise<{
  latency: { p99: number; max: number };
  statusCodeStats: Record<string, { count: number }>;
  timeouts: number;
  errors: number;
}>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const LIMIT = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("more requests than MAX_REQUESTS_IN_FLIGHT", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({ env: { MAX_REQUESTS_IN_FLIGHT: String(LIMIT) }, healthTimeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("are answered 503 with Retry-After at once, translated, while /healthz and files answer", async () => {
    // Under the limit, a page is served as usual (a visitor without a session is sent to sign in).
    expect((await getPage(server, "/account/statistics")).status).toBe(302);
    const { cookie } = await signInThroughLog(server, "held@example.test");
    const held = await holdRequests(
      server.port,
      LIMIT,
      async () => (await getPage(server, "/account/statistics")).status,
      cookie,
    );
    try {
      const refused = await getPage(server, "/de/account/statistics");
      expect(refused.status).toBe(503);
      expect(refused.headers["retry-after"]).toBe("2");
      expect(refused.headers["cache-control"]).toBe("no-store");
      expect(refused.headers["content-type"]).toMatch(/^text\/html/);
      expect(refused.headers["x-content-type-options"]).toBe("nosniff");
      expect(refused.body).toContain('<html lang="de" dir="ltr">');
      expect(refused.body).toContain("<h1>Dienst vorübergehend nicht verfügbar</h1>");
      expect(refused.body).toContain("Gerade kommen sehr viele Anfragen auf einmal.");
      expect(refused.body).toContain('<a href="/de/account/statistics">Noch einmal versuchen</a>');
      // Without JavaScript the page asks again by itself after Retry-After.
      expect(refused.body).toContain('<meta http-equiv="refresh" content="2">');
      expect(refused.body).not.toContain("<script");

      const english = await getPage(server, "/account/statistics?days=90");
      expect(english.status).toBe(503);
      expect(english.body).toContain('<html lang="en" dir="ltr">');
      expect(english.body).toContain("<h1>Service temporarily unavailable</h1>");
      expect(english.body).toContain("Too many requests are arriving at once right now.");
      expect(english.body).toContain('<a href="/account/statistics?days=90">Try again</a>');

      const data = await getPage(server, "/account/statistics.data");
      expect(data.status).toBe(503);
      expect(data.headers["retry-after"]).toBe("2");
      expect(data.headers["content-type"]).toMatch(/^text\/plain/);

      // A form post is refused too, without its body being read, and never reloads itself.
      const post = await rawRequest(server, {
        method: "POST",
        path: "/de/form",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.baseUrl },
        body: "email=a%40example.test",
      });
      expect(post.status).toBe(503);
      expect(post.body).toContain("Dienst vorübergehend nicht verfügbar");
      expect(post.body).not.toContain("http-equiv");

      // Health checks and files are never refused.
      const health = await getPage(server, "/healthz");
      expect(health.status).toBe(200);
      expect(health.body).toBe("ok");
      expect((await getPage(server, "/favicon.ico")).status).not.toBe(503);
      expect((await getPage(server, "/assets/missing-file.js")).status).toBe(404);

      await server.waitForLog((line) => line.json?.message === "requests refused: too many in flight", 5_000);
    } finally {
      held.release();
    }
    // Once the requests in flight end, pages are served again.
    let after = await getPage(server, "/account/statistics");
    for (let i = 0; after.status === 503 && i < 50; i++) {
      await sleep(100);
      after = await getPage(server, "/account/statistics");
    }
    expect(after.status).toBe(302);
  });

  it("answers every visitor of a public page not yet in memory from its one drawing, none refused", async () => {
    // A fresh instance (restarted under load behind the proxy) has no page in memory: the first visitor's request is
    // admitted and draws it, the others wait for that drawing instead of queueing for the two places.
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async () => (await getPage(server, "/de/explore")).status),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});

describe("a scaled-down overload on a signed-in page", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServer({ env: { LOG_LEVEL: "warn" }, healthTimeoutMs: 90_000 });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  /** GET /healthz on a new connection, as a load balancer's probe: how long until the answer. */
  const probeHealth = () =>
    new Promise<{ status: number; ms: number }>((resolve, reject) => {
      const at = performance.now();
      request({ host: "127.0.0.1", port: server.port, path: "/healthz", agent: false }, (res) => {
        res.resume();
        res.once("end", () => resolve({ status: res.statusCode!, ms: performance.now() - at }));
      })
        .once("error", reject)
        .end();
    });

  it("answers 200 or 503 only, never after 10 s, and /healthz answers meanwhile", async () => {
    const { cookie } = await signInThroughLog(server, "overload@example.test");
    const load = { running: true };
    const health: { status: number; ms: number }[] = [];
    const probes = (async () => {
      while (load.running) {
        health.push(await probeHealth());
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    // autocannon's answer is a thenable, not a promise.
    const result = await Promise.resolve(
      autocannon({
        url: `${server.baseUrl}/account/statistics`,
        connections: 60,
        duration: 5,
        timeout: 10,
        headers: { Cookie: cookie, "User-Agent": BROWSER_USER_AGENT, Accept: "text/html", "Accept-Encoding": "br" },
      }),
    ).finally(() => (load.running = false));
    await probes;
    const statuses = Object.keys(result.statusCodeStats);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((code) => code === "200" || code === "503")).toBe(true);
    expect(result.timeouts).toBe(0);
    expect(result.errors).toBe(0);
    expect(result.latency.max).toBeLessThan(10_000);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((probe) => probe.status === 200 && probe.ms < 5_000)).toBe(true);
  }, 60_000);
});
