/**
 * Part of `npm run build`: writes brotli (quality 11) and gzip (level 9) copies next to every compressible file of
 * build/client, so the server sends them as they are instead of compressing each response.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const CLIENT_DIR = path.resolve(import.meta.dirname, "../build/client");
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|html|txt|xml|map|webmanifest)$/;

let files = 0;
let saved = 0;
for (const name of readdirSync(CLIENT_DIR, { recursive: true }) as string[]) {
  const file = path.join(CLIENT_DIR, name);
  if (!COMPRESSIBLE.test(name) || !statSync(file).isFile()) continue;
  const body = readFileSync(file);
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz = zlib.gzipSync(body, { level: 9 });
  // A copy that is not smaller is not worth sending.
  if (br.length < body.length) writeFileSync(`${file}.br`, br);
  if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
  files++;
  saved += body.length - Math.min(br.length, body.length);
}
console.log(`precompressed ${files} files in build/client (brotli saves ${Math.round(saved / 1024)} KiB)`);
