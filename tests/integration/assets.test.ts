/**
 * Hashed assets leave server.ts as the build compressed them: brotli or gzip by Accept-Encoding, never compressed per
 * request. Runs the production server (`npm run build` first).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_USER_AGENT, PROJECT_ROOT, startServer, type ServerProcess } from "../support/server-process.ts";

let server: ServerProcess | undefined;
let assets: string[];

function raw(
  pathname: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      server!.baseUrl + pathname,
      { headers: { "User-Agent": BROWSER_USER_AGENT, ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

beforeAll(async () => {
  server = await startServer();
  const html = (await raw("/form", { "Accept-Encoding": "identity" })).body.toString();
  assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(([, href]) => href!);
});

afterAll(async () => {
  await server?.stop();
});

describe("precompressed assets", () => {
  it("are written next to the hashed files by the build (when a copy is smaller)", () => {
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const file = path.join(PROJECT_ROOT, "build/client", asset);
      if (statSync(file).size < 1024) continue;
      expect(existsSync(`${file}.br`), asset).toBe(true);
      expect(existsSync(`${file}.gz`), asset).toBe(true);
    }
  });

  for (const [acceptEncoding, expected] of [
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["identity", undefined],
    ["", undefined],
  ] as const) {
    it(`are sent ${expected ?? "uncompressed"} for Accept-Encoding "${acceptEncoding}", byte for byte the build's copy`, async () => {
      const large = assets.filter((asset) => statSync(path.join(PROJECT_ROOT, "build/client", asset)).size >= 1024);
      for (const asset of large.slice(0, 4)) {
        const file = path.join(PROJECT_ROOT, "build/client", asset);
        const response = await raw(asset, acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {});
        expect(response.status, asset).toBe(200);
        expect(response.headers["content-encoding"], asset).toBe(expected);
        expect(response.headers["vary"], asset).toBe("Accept-Encoding");
        expect(response.headers["cache-control"], asset).toBe("public, max-age=31536000, immutable");
        // What a script obeys stays; what only a document obeys is not repeated on every file.
        expect(response.headers["x-content-type-options"], asset).toBe("nosniff");
        for (const name of ["x-frame-options", "cross-origin-opener-policy", "permissions-policy", "referrer-policy"])
          expect(response.headers[name], `${asset}: ${name}`).toBeUndefined();
        // A fixed length: the body was not compressed on the fly (that would be chunked).
        expect(response.headers["content-length"], asset).toBe(String(response.body.length));
        const onDisk = readFileSync(expected === "br" ? `${file}.br` : expected === "gzip" ? `${file}.gz` : file);
        expect(response.body.equals(onDisk), asset).toBe(true);
        const decoded =
          expected === "br"
            ? brotliDecompressSync(response.body)
            : expected === "gzip"
              ? gunzipSync(response.body)
              : response.body;
        expect(decoded.equals(readFileSync(file)), asset).toBe(true);
      }
    });
  }

  it("answer a revalidation with 304", async () => {
    const [asset] = assets;
    const first = await raw(asset!, { "Accept-Encoding": "br" });
    const again = await raw(asset!, { "Accept-Encoding": "br", "If-None-Match": String(first.headers.etag) });
    expect(again.status).toBe(304);
  });
});

describe("the first load", () => {
  it("is a handful of script files with no serial chain: entry, libraries, shared app code, the page's routes", async () => {
    const html = (await raw("/", { "Accept-Encoding": "identity" })).body.toString();
    const preloads = [...html.matchAll(/<link rel="modulepreload" href="\/assets\/([^"]+)"/g)].map(([, name]) => name!);
    // Four route modules (root, the locale, the public layout, home), the entry, Rolldown's runtime, vendor and app.
    expect(preloads.length).toBeLessThanOrEqual(8);
    expect(preloads.some((name) => name.startsWith("vendor-"))).toBe(true);
    expect(preloads.some((name) => name.startsWith("app-"))).toBe(true);
    // Translations come inside the document, not as files.
    expect(preloads.filter((name) => name.startsWith("i18n-"))).toEqual([]);
    // Everything a preloaded file imports is preloaded too: nothing is discovered only after a script has run.
    for (const name of preloads) {
      const code = readFileSync(path.join(PROJECT_ROOT, "build/client/assets", name), "utf8");
      for (const [, imported] of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"']+\.js)["']/g))
        expect(preloads, `${name} imports ${imported}`).toContain(imported);
    }
  });
});
