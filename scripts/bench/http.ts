import http from "node:http";
import zlib from "node:zlib";
import { BASE_HEADERS, BROWSER_ENCODINGS, interrupted } from "./run.ts";

// HTTP helpers

export class CookieJar {
  private cookies = new Map<string, string>();
  store(setCookies: string[]) {
    for (const header of setCookies) {
      const [pair = "", ...attributes] = header.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\b/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(index + 1));
    }
  }
  has(name: string) {
    return this.cookies.has(name);
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

export type Reply = { status: number; location: string | null; body: string; ms: number };

/** One browser-like request through fetch, never following redirects; `ms` is measured around fetch and the body. */
export async function request(
  baseUrl: string,
  pathAndQuery: string,
  options: { jar?: CookieJar; form?: Record<string, string> } = {},
): Promise<Reply> {
  if (interrupted) throw new Error("interrupted");
  const headers: Record<string, string> = { ...BASE_HEADERS, "Accept-Encoding": BROWSER_ENCODINGS };
  const cookie = options.jar?.header();
  if (cookie) headers.Cookie = cookie;
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers.Origin = baseUrl;
  }
  const t0 = performance.now();
  const response = await fetch(baseUrl + pathAndQuery, {
    method: options.form ? "POST" : "GET",
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  const ms = performance.now() - t0;
  options.jar?.store(response.headers.getSetCookie());
  return { status: response.status, location: response.headers.get("location"), body: text, ms };
}

/** A body as transferred, decoded as a browser decodes its `Content-Encoding`. */
export function decodedBody(wire: Buffer, encoding: string | undefined): Buffer {
  if (encoding === "gzip") return zlib.gunzipSync(wire);
  if (encoding === "br") return zlib.brotliDecompressSync(wire);
  if (encoding === "deflate") return zlib.inflateSync(wire);
  return wire;
}

export type RawReply = { status: number; headers: http.IncomingHttpHeaders; wire: Buffer; decoded: Buffer };

/** GET with node:http: the body bytes exactly as transferred (no transparent decompression), and decoded. */
export function rawGet(url: string, headers: Record<string, string>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const wire = Buffer.concat(chunks);
        try {
          const decoded = decodedBody(wire, res.headers["content-encoding"]);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, decoded });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.setTimeout(15_000, () => req.destroy(new Error(`timeout: ${url}`)));
    req.on("error", reject);
  });
}

export const gzip9 = (data: Buffer | string) => zlib.gzipSync(data, { level: 9 }).length;
