import zlib from "node:zlib";
import type { MiddlewareFunction } from "react-router";
import { preferredEncoding } from "./accept-encoding";
import { brotliOptions, compressed, DRAWN_LEVELS } from "./kept-document.server";

/**
 * A drawn document compressed in one go. The server renders a page whole into one buffer (entry.server.tsx); sent
 * through Express's compression middleware it would be fed through a compression stream, chunk by chunk on the thread
 * pool, each compressed chunk a write of its own: measured on the review's card (79 KB), about 1 ms of the main thread
 * per page, where compressing the buffer at once takes a quarter of that and the answer goes out as one write with its
 * length. The compression middleware passes an answer that already names its encoding as it is. The levels are the
 * middleware's (DRAWN_LEVELS, `edge.server.ts`).
 *
 * Only HTML is encoded here (a page's data for client navigation can stream: the middleware takes it); a document
 * larger than SYNC_LIMIT is compressed on the thread pool, so no page holds the main thread long.
 */
const SYNC_LIMIT = 256 * 1024;
/** Below this, the bytes saved are not worth the work (the compression middleware's own threshold). */
const THRESHOLD = 1024;

function compressDocument(body: Buffer, encoding: "br" | "gzip"): Buffer | Promise<Buffer> {
  if (body.length > SYNC_LIMIT) return compressed(body, encoding, DRAWN_LEVELS);
  return encoding === "br"
    ? zlib.brotliCompressSync(body, brotliOptions(body, DRAWN_LEVELS))
    : zlib.gzipSync(body, { level: DRAWN_LEVELS.gzip });
}

/** The outermost middleware: what it is handed back is the answer as every other middleware left it. */
export const documentCompressionMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const response = await next();
  if (request.method === "HEAD" || !response.body || response.headers.has("Content-Encoding")) return response;
  if (!response.headers.get("Content-Type")?.startsWith("text/html")) return response;
  const encoding = preferredEncoding(request.headers.get("Accept-Encoding") ?? undefined);
  if (encoding === "identity") return response;
  const body = Buffer.from(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.set("Vary", [headers.get("Vary"), "Accept-Encoding"].filter(Boolean).join(", "));
  const init = { status: response.status, statusText: response.statusText, headers };
  if (body.length < THRESHOLD) return new Response(bytes(body), init);
  const encoded = await compressDocument(body, encoding);
  headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(encoded.length));
  return new Response(bytes(encoded), init);
};

const bytes = (buffer: Buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
