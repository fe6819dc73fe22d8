/**
 * The request log as ops read it: one JSON line per request on stdout with its id (also the X-Request-Id header; the
 * proxy's own id when TRUST_PROXY trusts it and it is plain), the route pattern React Router matched, the status, the
 * duration and the signed-in learner as a keyed hash, never their address, token or session cookie.
 *
 * Needs `npm run build`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type LogLine, type ServerProcess } from "../support/server-process.ts";
import { visitor } from "../support/http-visitor.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The log line of the request that got this X-Request-Id (written when its answer finished). */
async function lineOf(server: ServerProcess, response: Response): Promise<Record<string, unknown>> {
  const id = response.headers.get("x-request-id");
  expect(id).toBeTruthy();
  const line = await server.waitForLog((l: LogLine) => l.json?.message === "request" && l.json.id === id);
  return line.json!;
}

async function get(server: ServerProcess, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(server.baseUrl + path, { headers, redirect: "manual" });
  // Read to the end: a request whose client goes away before the answer finished is not logged.
  await response.arrayBuffer();
  return response;
}

describe("request log lines", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: { AUTH_PROVIDER: "local" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("name the request by a fresh id, sent back as X-Request-Id, and group it by route pattern", async () => {
    const first = await get(server, "/de/explore?language=es&level=advanced");
    const second = await get(server, "/explore");
    expect(first.headers.get("x-request-id")).toMatch(UUID);
    expect(second.headers.get("x-request-id")).toMatch(UUID);
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"));
    const line = await lineOf(server, first);
    expect(line).toMatchObject({ level: "info", method: "GET", route: "/:lang?/explore", status: 200 });
    expect(line.ms).toEqual(expect.any(Number));
    expect(line.learner).toBeUndefined();
    expect(JSON.stringify(line)).not.toContain("level=advanced");
    expect(await lineOf(server, second)).toMatchObject({ route: "/:lang?/explore", status: 200 });
  });

  it("give data requests their page's pattern, unknown pages the catch-all's, files and health their own", async () => {
    expect(await lineOf(server, await get(server, "/explore.data"))).toMatchObject({ route: "/:lang?/explore" });
    expect(await lineOf(server, await get(server, "/no/such/page"))).toMatchObject({
      route: "/:lang?/*",
      status: 404,
    });
    expect(await lineOf(server, await get(server, "/favicon.svg"))).toMatchObject({ route: "static file" });
    // A malformed escape matches like any other parameter, and the pattern adds no warning of its own to the log.
    const warnings = () => server.logs().filter((l) => l.text.includes("could not be decoded")).length;
    const before = warnings();
    expect(await lineOf(server, await get(server, "/explore/%E0%A4%A"))).toMatchObject({ route: "/:lang?/*" });
    expect(warnings() - before).toBeLessThanOrEqual(1);
    const health = await get(server, "/healthz");
    expect(health.headers.get("x-request-id")).toMatch(UUID);
  });

  it("ignore a client's X-Request-Id without TRUST_PROXY: anybody could write into the log", async () => {
    const response = await get(server, "/explore", { "X-Request-Id": "chosen-by-the-client-0001" });
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });

  it("carry a signed-in learner as the same keyed hash on every line, never their address or token", async () => {
    const email = `log-lines-${Date.now().toString(36)}@example.com`;
    const learner = visitor(server.baseUrl);
    await learner.requestSignIn(email);
    const sent = await server.waitForLog((l) => l.json?.to === email);
    const link = String(sent.json!.link);
    const token = new URL(link).searchParams.get("token")!;
    const confirmed = await learner.confirm(link);
    expect(confirmed.status).toBe(302);
    const tags = new Set<unknown>();
    // Drawn by React Router first, later answered from memory ahead of Express: both say who asked.
    for (let i = 0; i < 4; i++) {
      const { response } = await learner.page("/account/home");
      expect(response.status).toBe(200);
      const line = await lineOf(server, response);
      expect(line.route).toBe("/:lang?/account/home");
      tags.add(line.learner);
    }
    expect(tags.size).toBe(1);
    const [tag] = tags;
    expect(tag).toMatch(/^[0-9a-f]{16}$/);
    const session = learner.jar.get("__session")!;
    const requestLines = server.logs().filter((l) => l.json?.message === "request");
    for (const line of requestLines) {
      expect(line.text).not.toContain(email);
      expect(line.text).not.toContain(encodeURIComponent(email));
      expect(line.text).not.toContain(token);
      expect(line.text).not.toContain(session);
    }
    // The confirmation itself (a POST that signs in) is logged without the learner it is about to create a session for.
    expect(requestLines.some((l) => l.json!.route === "/:lang?/confirm" && l.json!.method === "POST")).toBe(true);
  });
});

describe("request ids behind a trusted proxy", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ env: { TRUST_PROXY: "loopback" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("take the proxy's X-Request-Id when it is short and plain", async () => {
    const id = "f2b6c1d0-proxy.id:42";
    const response = await get(server, "/explore", { "X-Request-Id": id });
    expect(response.headers.get("x-request-id")).toBe(id);
    expect(await lineOf(server, response)).toMatchObject({ id, route: "/:lang?/explore" });
  });

  for (const [what, offered] of [
    ["too long", "a".repeat(129)],
    ["with a space", "two words"],
    ["with quotes and markup", '"><script>'],
    ["empty", ""],
  ] as const) {
    it(`replace one ${what} with a fresh id`, async () => {
      const response = await get(server, "/explore", { "X-Request-Id": offered });
      expect(response.headers.get("x-request-id")).toMatch(UUID);
      expect((await lineOf(server, response)).id).toMatch(UUID);
    });
  }
});
