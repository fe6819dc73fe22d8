import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { env } from "../config/env.server";
import { hashedContentSecurityPolicy } from "../http/csp";

/** Response headers a kept document never carries: they are set per answer. */
const DROPPED_HEADERS = new Set([
  "content-length",
  "content-encoding",
  "content-security-policy",
  "date",
  "etag",
  "connection",
  "transfer-encoding",
  "vary",
  "cache-control",
]);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

/** The body without the render's nonce, and the hashes of its inline scripts. */
function withoutNonce(html: string, csp: string | null): { html: string; hashes: string[] } {
  const nonce = csp?.match(/'nonce-([^']+)'/)?.[1];
  const shared = nonce ? html.replaceAll(` nonce="${nonce}"`, "") : html;
  const hashes = new Set<string>();
  for (const [, attributes = "", content = ""] of shared.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/.test(attributes)) continue;
    hashes.add(createHash("sha256").update(content).digest("base64"));
  }
  return { html: shared, hashes: [...hashes] };
}

/** The level each encoding is compressed at. */
export type Levels = { brotli: number; gzip: number };

/** Pages drawn per request: at their sizes a higher level costs more CPU than it saves bytes. */
export const DRAWN_LEVELS: Levels = { brotli: 1, gzip: 1 };

/** Brotli's options for a body of this size at this level. */
const brotliOptions = (identity: Buffer, level: Levels): zlib.BrotliOptions => ({
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: level.brotli,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
  },
});

/**
 * A body compressed for an encoding, off the main thread. The output is taken in chunks as large as the body, so that
 * a page goes to the thread pool and back once rather than once per 16 KB of output.
 */
export function compressed(identity: Buffer, encoding: "br" | "gzip", level: Levels): Promise<Buffer> {
  const chunkSize = Math.max(zlib.constants.Z_DEFAULT_CHUNK, identity.length);
  if (encoding === "gzip") return gzip(identity, { level: level.gzip, chunkSize });
  return brotli(identity, { ...brotliOptions(identity, level), chunkSize });
}

/**
 * A rendered document made fit to answer from memory, uncompressed: without its nonce (the CSP allows its inline
 * scripts by hash), with the response's headers except those set per answer. An answer drawn without a CSP (a page's
 * data for client navigation) is kept without one.
 */
export function sharedDocument(response: Response, html: string) {
  const csp = response.headers.get("Content-Security-Policy");
  const { html: shared, hashes } = withoutNonce(html, csp);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!DROPPED_HEADERS.has(name)) headers[name] = value;
  });
  if (csp)
    headers["content-security-policy"] = hashedContentSecurityPolicy(
      hashes,
      env.analyticsHosts,
      env.billing.redirectOrigins,
    );
  return { identity: Buffer.from(shared), headers };
}

/** The document above, compressed both ways at the given levels. */
export async function keptDocument(response: Response, html: string, level: Levels) {
  const { identity, headers } = sharedDocument(response, html);
  const [br, gz] = await Promise.all([compressed(identity, "br", level), compressed(identity, "gzip", level)]);
  return { bodies: { identity, br, gzip: gz }, bytes: identity.length + br.length + gz.length, headers };
}
