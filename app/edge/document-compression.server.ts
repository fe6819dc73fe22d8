import type { MiddlewareFunction } from "react-router";
import { preferredEncoding } from "./accept-encoding";
import { compressed, DRAWN_LEVELS } from "./kept-document.server";

/**
 * A drawn document compressed in one go. The server renders a page whole into one buffer (entry.server.tsx); sent
 * through Express's compression middleware it would be fed through a compression stream, chunk by chunk, each
 * compressed chunk a write of its own: measured on the review's card (79 KB), about 1 ms of the main thread per page.
 * Here the buffer is compressed at once on the thread pool, and the answer goes out as one write with its length: the
 * main thread only hands the buffer over (~0.06 ms for the card). Compressed on the main thread instead (synchronously)
 * the card took it ~0.3 ms, 7 % of the main thread in the review loop, where the main thread is the limit and the
 * thread pool is idle (decision 072). The compression middleware passes an answer that already names its encoding as
 * it is. The levels are the middleware's (DRAWN_LEVELS, `edge.server.ts`).
 *
 * Only HTML is encoded here (a page's data for client navigation can stream: the middleware takes it).
 */
/** Below this, the bytes saved are not worth the work (the compression middleware's own threshold). */
const THRESHOLD = 1024;

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
  const encoded = await compressed(body, encoding, DRAWN_LEVELS);
  headers.set("Content-Encoding", encoding);
  headers.set("Content-Length", String(encoded.length));
  return new Response(bytes(encoded), init);
};

const bytes = (buffer: Buffer) => new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
