/**
 * Load shedding: with MAX_REQUESTS_IN_FLIGHT requests in flight, the production server answers the next one at once
 * with 503 and Retry-After — a translated page for a document (German and English here), a short text for `.data` —
 * while /healthz and static files still answer; once the requests in flight end, pages are served again.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdRequests } from "../support/held-requests.ts";
import { getPage, rawRequest } from "../support/raw-http.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";

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
    const held = await holdRequests(
      server.port,
      LIMIT,
      async () => (await getPage(server, "/account/statistics")).status,
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
});
