/**
 * Public pages already in memory are answered by server.ts before Express and React Router see the request. The
 * production server (`node server.ts`, `npm run build` first) must answer them exactly as the rendered way does: the
 * first request of a page is rendered (a miss), the next ones come from memory.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

let server: ServerProcess | undefined;

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function request(pathname: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      server!.baseUrl + pathname,
      { method, agent: false, headers: { "User-Agent": BROWSER_USER_AGENT, "Accept-Language": "en", ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Every header but the clock's and the request's own id (each answer names its request, from memory too). */
const withoutDate = ({ date: _date, "x-request-id": requestId, ...headers }: http.IncomingHttpHeaders) => {
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  return headers;
};

const requestLogs = (pathname: string) =>
  server!.logs().filter((line) => line.json?.message === "request" && line.json.path === pathname);

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

describe("public pages answered from memory ahead of Express", () => {
  for (const page of ["/", "/form", "/company/privacy", "/de/explore?language=es&level=advanced"]) {
    it(`${page}: the answer from memory has the headers and body of the rendered one, and is logged`, async () => {
      const pathname = page.split("?")[0]!;
      const rendered = await request(page, { "Accept-Encoding": "gzip, deflate, br" });
      const fromMemory = await request(page, { "Accept-Encoding": "gzip, deflate, br" });
      expect(rendered.status).toBe(200);
      expect(rendered.headers.etag).toBeDefined();
      expect(withoutDate(fromMemory.headers)).toEqual(withoutDate(rendered.headers));
      expect(fromMemory.body.equals(rendered.body)).toBe(true);
      expect(fromMemory.headers["content-encoding"]).toBe("br");
      expect(fromMemory.headers["x-frame-options"]).toBe("DENY");
      expect(fromMemory.headers["content-security-policy"]).toContain("'sha256-");

      // Log lines arrive through the server's stdout a moment after the answer.
      const logs = await vi.waitFor(() => {
        const lines = requestLogs(pathname);
        expect(lines.length).toBeGreaterThanOrEqual(2);
        return lines;
      });
      expect(logs.at(-1)!.json).toMatchObject({ method: "GET", path: pathname, status: 200, ip: "127.0.0.1" });
    });
  }

  it("keeps the sign-in page out of shared caches, as every form", async () => {
    await request("/form");
    const fromMemory = await request("/form");
    expect(fromMemory.headers["cache-control"]).toBe("private, no-store");
    expect(fromMemory.headers.vary).toContain("Cookie");
  });

  it("answers 304 from memory to a browser holding the current version, with the same policy headers", async () => {
    const first = await request("/company/terms-of-use", { "Accept-Encoding": "gzip" });
    const unchanged = await request("/company/terms-of-use", {
      "Accept-Encoding": "gzip",
      "If-None-Match": first.headers.etag!,
    });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(unchanged.headers.etag).toBe(first.headers.etag);
    expect(unchanged.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(unchanged.headers["x-content-type-options"]).toBe("nosniff");

    await request("/form");
    const form = await request("/form", { "If-None-Match": (await request("/form")).headers.etag! });
    expect(form.status).toBe(304);
    expect(form.headers["cache-control"]).toBe("private, no-store");
  });

  it("answers HEAD from memory with the GET's headers and no body", async () => {
    const get = await request("/subscription", { "Accept-Encoding": "br" });
    const head = await request("/subscription", { "Accept-Encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(withoutDate(head.headers)).toEqual(withoutDate(get.headers));
    expect(head.headers["content-length"]).toBe(String(get.body.length));
  });

  it("never gives a visitor with a session or a toast the shared body, however warm the cache", async () => {
    for (let i = 0; i < 3; i++) await request("/explore");
    for (const cookie of ["__session=anything", "toast=anything", "theme=x; __session=anything"]) {
      const personal = await request("/explore", { Cookie: cookie, "Accept-Encoding": "identity" });
      expect(personal.status, cookie).toBe(200);
      expect(personal.headers.etag, cookie).toBeUndefined();
      expect(personal.headers["content-security-policy"], cookie).toContain("'nonce-");
      expect(personal.headers["cache-control"], cookie).toBe("private, no-store");
    }
  });

  it("logs the client address as Express would: a forged X-Forwarded-For is not believed without TRUST_PROXY", async () => {
    await request("/company/privacy");
    const before = requestLogs("/company/privacy").length;
    const fromMemory = await request("/company/privacy", { "X-Forwarded-For": "203.0.113.7" });
    expect(fromMemory.headers.etag).toBeDefined();
    const logs = await vi.waitFor(() => {
      const lines = requestLogs("/company/privacy");
      expect(lines.length).toBeGreaterThan(before);
      return lines;
    });
    expect(logs.at(-1)!.json).toMatchObject({ status: 200, ip: "127.0.0.1" });
  });

  it("leaves a request with a body, another method or another query to the rendered way", async () => {
    await request("/crowdfunding-campaign");
    const withBody = await request("/crowdfunding-campaign", { "Content-Length": "0" });
    expect(withBody.status).toBe(200);
    const query = await request("/crowdfunding-campaign?utm_source=forum");
    expect(query.headers.etag).toBeUndefined();
    const put = await request("/crowdfunding-campaign", {}, "PUT");
    expect(put.status).toBe(405);
  });
});

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  let proxied: ServerProcess | undefined;
  beforeAll(async () => {
    proxied = await startServer({ env: { TRUST_PROXY: "1" } });
  });
  afterAll(async () => {
    await proxied?.stop();
  });

  it("logs the address the proxy saw for a page answered from memory", async () => {
    const get = async (xff: string) => {
      const response = await fetch(`${proxied!.baseUrl}/subscription`, {
        headers: { "User-Agent": BROWSER_USER_AGENT, "X-Forwarded-For": xff },
      });
      await response.arrayBuffer();
      return response;
    };
    expect((await get("198.51.100.1")).headers.get("etag")).not.toBeNull();
    const fromMemory = await get("192.0.2.1, 198.51.100.2");
    expect(fromMemory.status).toBe(200);
    expect(fromMemory.headers.get("etag")).not.toBeNull();
    const line = await proxied!.waitForLog((l) => l.json?.path === "/subscription" && l.json.ip === "198.51.100.2");
    expect(line.json).toMatchObject({ method: "GET", status: 200 });
  });
});
