/**
 * A document drawn for a request is compressed in one go (app/edge/document-compression.server.ts): the encoding the
 * client takes, its length named, decoding to the very page an uncompressed request gets. A real server on PGlite;
 * the requests go out with node:http, which leaves the bytes as they came.
 */
import http from "node:http";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";
import { visitor } from "../support/http-visitor.ts";

let server: ServerProcess;
let cookie: string;

beforeAll(async () => {
  server = await startServer();
  const learner = visitor(server.baseUrl);
  const email = "compressed@example.test";
  await learner.requestSignIn(email);
  const line = await server.waitForLog(
    (entry) => entry.json?.message === "sign-in link (no SMTP_URL configured)" && entry.json.to === email,
  );
  await learner.confirm(String(line.json!.link));
  await learner.page("/account/home");
  cookie = [...learner.jar].map(([name, value]) => `${name}=${value}`).join("; ");
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function raw(path: string, acceptEncoding: string | null, method = "GET"): Promise<Raw> {
  const headers: Record<string, string> = { "User-Agent": BROWSER_USER_AGENT, Accept: "text/html", Cookie: cookie };
  if (acceptEncoding !== null) headers["Accept-Encoding"] = acceptEncoding;
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, server.baseUrl), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

/**
 * The page's text without what each render has of its own: the nonce, and the honeypot's encrypted time (the same
 * within a second: two requests can fall on either side of one).
 */
const withoutNonce = (html: string) =>
  html
    .replace(/ nonce="[^"]+"/g, "")
    .replace(/'nonce-[^']+'/g, "")
    .replace(/\\"encryptedValidFrom\\",\\"[^"\\]+\\"/g, "");

// Each request names a query of its own: a page kept for the learner would come from memory, not from a drawing.
let n = 0;
const drawn = (path: string) => `${path}${path.includes("?") ? "&" : "?"}draw=${++n}`;

describe("a drawn document", () => {
  it("goes out in brotli, gzip or as it is, as the client takes it, with its length, decoding to the same page", async () => {
    const plain = await raw(drawn("/account/settings"), null);
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const html = withoutNonce(plain.body.toString("utf8"));
    expect(html).toContain("</html>");

    const br = await raw(drawn("/account/settings"), "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(withoutNonce(zlib.brotliDecompressSync(br.body).toString("utf8")).replace(/draw=\d+/g, "")).toBe(
      html.replace(/draw=\d+/g, ""),
    );

    const gzip = await raw(drawn("/account/settings"), "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.length);
    expect(withoutNonce(zlib.gunzipSync(gzip.body).toString("utf8")).replace(/draw=\d+/g, "")).toBe(
      html.replace(/draw=\d+/g, ""),
    );

    const refused = await raw(drawn("/account/settings"), "br;q=0, gzip;q=0");
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.toString("utf8")).toContain("</html>");
  });

  it("an error page is compressed too; a HEAD request has no body", async () => {
    const missing = await raw("/account/no-such-page", "br");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(missing.body).toString("utf8")).toContain("</html>");

    const head = await raw(drawn("/account/settings"), "br", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});
