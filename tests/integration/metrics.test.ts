/**
 * `/metrics` for a Prometheus scraper: the Prometheus text format only with `Authorization: Bearer $METRICS_TOKEN`,
 * 401 with a wrong or missing token, and no such path at all (the 404 page) without the variable.
 *
 * Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

const TOKEN = "metrics-test-token-4f9a1c7e2b6d8035a1e4c9f7b2d6e803";

async function get(server: ServerProcess, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.baseUrl + path, { headers, redirect: "manual" });
  return { response, text: await response.text() };
}

/** The value of one sample line (`name{labels} value`), or null when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return null;
}

describe("/metrics without METRICS_TOKEN", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("does not exist: the 404 page (a bare 404 for a scraper, as any unknown path), even with a token", async () => {
    for (const headers of [{}, { Authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const page = await get(server, "/metrics", { ...headers, "User-Agent": BROWSER_USER_AGENT });
      expect(page.response.status).toBe(404);
      expect(page.response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(page.text).not.toContain("http_request_duration_seconds");
      // Node's fetch counts as a bot, as Prometheus would: the status and nothing else, like /no/such/path.
      const scraper = await get(server, "/metrics", headers);
      expect(scraper.response.status).toBe(404);
      expect(scraper.text).toBe((await get(server, "/no/such/path", headers)).text);
      expect(scraper.text).not.toContain("process_resident_memory_bytes");
    }
  });
});

describe("/metrics with METRICS_TOKEN", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const [what, authorization] of [
    ["no Authorization header", undefined],
    ["a wrong token", `Bearer ${TOKEN.slice(0, -1)}x`],
    ["a longer token", `Bearer ${TOKEN}0`],
    ["the token without Bearer", TOKEN],
    ["Basic credentials", `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}`],
    ["an empty bearer", "Bearer "],
  ] as const) {
    it(`refuses ${what} with 401 and no metrics`, async () => {
      const { response, text } = await get(server, "/metrics", authorization ? { Authorization: authorization } : {});
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(text).not.toContain("http_request");
      expect(text).not.toContain("process_");
    });
  }

  it("answers the Prometheus text format with requests by route pattern and status, after a few", async () => {
    for (let i = 0; i < 3; i++) expect((await get(server, "/explore")).response.status).toBe(200);
    expect((await get(server, "/no/such/page")).response.status).toBe(404);
    const { response, text } = await get(server, "/metrics", { Authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(text).toContain("# TYPE http_request_duration_seconds histogram");
    const explore = { method: "GET", route: "/:lang?/explore", status: "200" };
    expect(sample(text, "http_request_duration_seconds_count", explore)).toBeGreaterThanOrEqual(3);
    expect(sample(text, "http_request_duration_seconds_bucket", { ...explore, le: "+Inf" })).toBeGreaterThanOrEqual(3);
    expect(
      sample(text, "http_request_duration_seconds_count", { route: "/:lang?/*", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    // The raw path never becomes a label.
    expect(text).not.toContain('route="/no/such/page"');
    // This scrape itself is in flight while the metrics are read.
    expect(sample(text, "http_requests_in_flight")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "shed_requests_total")).toBe(0);
    expect(sample(text, "db_query_duration_seconds_count", { database: "pglite", outcome: "ok" })).toBeGreaterThan(0);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_eventloop_lag_seconds")).not.toBeNull();

    // The scrape is counted too, under its own name, after it was answered.
    const again = await get(server, "/metrics", { Authorization: `Bearer ${TOKEN}` });
    expect(sample(again.text, "http_request_duration_seconds_count", { route: "/metrics", status: "200" })).toBe(1);
    expect(sample(again.text, "http_request_duration_seconds_count", { route: "/metrics", status: "401" })).toBe(6);
  });
});

describe("/metrics on PostgreSQL", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    const databaseUrl = await createDatabase(inject("pgUrl"), `metrics_${process.pid}_${Date.now()}`);
    server = await startServer({ env: { METRICS_TOKEN: TOKEN, DATABASE_URL: databaseUrl } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("times the statements and counts the pool's connections", async () => {
    expect((await get(server, "/explore")).response.status).toBe(200);
    const { text } = await get(server, "/metrics", { Authorization: `Bearer ${TOKEN}` });
    expect(sample(text, "db_query_duration_seconds_count", { database: "postgresql", outcome: "ok" })).toBeGreaterThan(
      0,
    );
    expect(sample(text, "db_pool_connections", { state: "open" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "db_pool_connections", { state: "waiting" })).toBe(0);
  });
});
