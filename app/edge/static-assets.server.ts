import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { preferredEncoding } from "./accept-encoding";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
};

/**
 * Set on every response by server.ts, obeyed only by documents (framing, opener, features; a module script without a
 * referrer policy takes its document's): a first load carries eight scripts, each would carry them for nothing.
 */
const DOCUMENT_ONLY_HEADERS = [
  "x-frame-options",
  "cross-origin-opener-policy",
  "permissions-policy",
  "referrer-policy",
];

type Asset = { type: string; etag: string; bodies: Partial<Record<"identity" | "br" | "gzip", Buffer>> };

/**
 * Hashed assets with the brotli and gzip copies written by the build (scripts/compress-assets.ts), held in memory and
 * sent as they are: no compression per request. Files without copies are left to the next handler.
 */
export function precompressedAssets(dir: string, cacheControl = "public, max-age=31536000, immutable") {
  const assets = new Map<string, Asset>();
  const names = existsSync(dir) ? (readdirSync(dir, { recursive: true }) as string[]) : [];
  for (const name of names) {
    const file = path.join(dir, name);
    const type = TYPES[path.extname(name)];
    if (!type || !statSync(file).isFile() || !(existsSync(`${file}.br`) || existsSync(`${file}.gz`))) continue;
    const identity = readFileSync(file);
    const bodies: Asset["bodies"] = { identity };
    if (existsSync(`${file}.br`)) bodies.br = readFileSync(`${file}.br`);
    if (existsSync(`${file}.gz`)) bodies.gzip = readFileSync(`${file}.gz`);
    const etag = createHash("sha1").update(identity).digest("base64url").slice(0, 22);
    assets.set(`/${name.split(path.sep).join("/")}`, { type, etag, bodies });
  }

  return function precompressedAssetsMiddleware(
    req: IncomingMessage & { path?: string },
    res: ServerResponse,
    next: () => void,
  ): void {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const asset = assets.get(req.path ?? (req.url ?? "/").split("?")[0]!);
    if (!asset) return next();
    const wanted = preferredEncoding(req.headers["accept-encoding"]);
    const encoding = asset.bodies[wanted] ? wanted : "identity";
    const body = asset.bodies[encoding]!;
    const etag = `"${asset.etag}${encoding === "identity" ? "" : `-${encoding}`}"`;
    for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
    const headers: Record<string, string | number> = {
      "content-type": asset.type,
      "cache-control": cacheControl,
      vary: "Accept-Encoding",
      etag,
    };
    if (req.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    headers["content-length"] = body.length;
    if (encoding !== "identity") headers["content-encoding"] = encoding;
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
