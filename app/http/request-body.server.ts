import busboy from "busboy";
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { data, type MiddlewareFunction } from "react-router";
import { pagePath } from "./request-path";

/** The largest request body accepted (forms are a few KiB; a long term with notes stays far below). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** The import page takes files: 10,000 rows of vocabulary, or a JSON export with its review history. */
export const IMPORT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** The largest Anki package the import takes (ADR 059): shared decks with their media often pass 5 MiB. */
export const PACKAGE_LIMIT_BYTES = 100 * 1024 * 1024;

const IMPORT_PAGE = /^(?:\/[a-z]{2})?\/account\/import$/;

/** Pages (without their locale prefix) allowed a larger body than BODY_LIMIT_BYTES. */
const LARGER_BODIES: [RegExp, number][] = [[IMPORT_PAGE, IMPORT_BODY_LIMIT_BYTES]];

/**
 * Pages whose multipart bodies are spooled: each file is streamed to a temporary file instead of memory, up to this
 * larger limit for the whole body (the package plus the form's few fields); text fields keep the page's own limit.
 */
const SPOOLED_BODIES: [RegExp, number][] = [[IMPORT_PAGE, PACKAGE_LIMIT_BYTES + BODY_LIMIT_BYTES]];

/** The limit of a body read into memory on a request path (document or `.data` request alike). */
function bufferedLimitFor(pathname: string): number {
  const page = pagePath(pathname);
  return LARGER_BODIES.find(([pattern]) => pattern.test(page))?.[1] ?? BODY_LIMIT_BYTES;
}

/** The largest body a request path accepts in any form (a spooled upload or a form read into memory). */
export function bodyLimitFor(pathname: string): number {
  return Math.max(bufferedLimitFor(pathname), spooledLimitFor(pathname) ?? 0);
}

/** The spooled-body limit of a request path, or null where files are read into memory. */
function spooledLimitFor(pathname: string): number | null {
  const page = pagePath(pathname);
  return SPOOLED_BODIES.find(([pattern]) => pattern.test(page))?.[1] ?? null;
}

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;
const MULTIPART = /^\s*multipart\/form-data\s*;/i;

const tooLarge = () => data(null, { status: 413 });

/**
 * A body announced as larger than the limit is refused before anything reads it. The temporary files of a spooled
 * body are removed once the route has answered.
 */
export const bodyLimitMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  const limit = bodyLimitFor(new URL(request.url).pathname);
  if (request.body && (!Number.isFinite(length) || length > limit)) throw tooLarge();
  try {
    return await next();
  } finally {
    const dir = spoolDirs.get(request);
    if (dir) await rm(dir, { recursive: true, force: true });
  }
};

/** The temporary directory of each request whose files were spooled. */
const spoolDirs = new WeakMap<Request, string>();
/** The file on disk behind each spooled upload. */
const spooledFiles = new WeakMap<File, string>();

/** Where a spooled upload lies on disk until the request is answered (null for a file read into memory). */
export const spooledPath = (file: File): string | null => spooledFiles.get(file) ?? null;

/**
 * Reads a body chunk by chunk, counting its bytes, and hands each chunk to `each` (which may stop the reading early by
 * returning false): false once the bytes pass `limit`, where reading stops without destroying the connection (the
 * 413 page still has to reach the client).
 */
async function readCounted(
  body: ReadableStream<Uint8Array>,
  limit: number,
  each: (chunk: Uint8Array) => boolean | void | Promise<boolean | void>,
): Promise<boolean> {
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return true;
    size += value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      return false;
    }
    if ((await each(value)) === false) return true;
  }
}

/** Reads at most `limit` bytes of a body; null when it is longer. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | null> {
  const chunks: Uint8Array[] = [];
  const within = await readCounted(body, limit, (chunk) => void chunks.push(chunk));
  return within ? Buffer.concat(chunks) : null;
}

/**
 * A body's raw bytes, for the one caller that must see them exactly (a signed webhook): at most the same limit, 413
 * above it, 400 when the stream breaks.
 */
export async function readRawBody(request: Request): Promise<Buffer> {
  if (!request.body) return Buffer.alloc(0);
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(request.body, BODY_LIMIT_BYTES);
  } catch {
    throw data(null, { status: 400 });
  }
  if (!bytes) throw tooLarge();
  return bytes;
}

/**
 * A form POST's fields. Anything else is the client's mistake and answers with the translated error page: 415 for a
 * body that is not a form (JSON, text), 413 above the path's limit (bufferedLimitFor, or for a multipart body on a
 * spooled page its larger limit; also for a streamed body without a length), 400 for a broken one.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(type)) throw data(null, { status: 415 });
  if (!request.body) return new FormData();
  const spooled = MULTIPART.test(type) ? spooledLimitFor(new URL(request.url).pathname) : null;
  if (spooled !== null) return withoutNul(await spoolForm(request, request.body, type, spooled));
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(request.body, bufferedLimitFor(new URL(request.url).pathname));
  } catch {
    throw data(null, { status: 400 });
  }
  if (!bytes) throw tooLarge();
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "Content-Type": type } }).formData();
  } catch {
    throw data(null, { status: 400 });
  }
  return withoutNul(form);
}

/**
 * A multipart body parsed as it arrives (busboy): fields in memory up to the page's own limit each, files streamed to a
 * temporary directory (removed by bodyLimitMiddleware after the answer) and handed on as disk-backed Files. The whole
 * body is capped at `limit` (413); a broken body is a 400.
 */
async function spoolForm(
  request: Request,
  body: ReadableStream<Uint8Array>,
  type: string,
  limit: number,
): Promise<FormData> {
  const dir = await mkdtemp(path.join(tmpdir(), "polyglot-upload-"));
  spoolDirs.set(request, dir);
  const form = new FormData();
  const fieldLimit = bufferedLimitFor(new URL(request.url).pathname);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      defParamCharset: "utf8",
      limits: { fieldSize: fieldLimit, fields: 200, files: 1, parts: 250 },
    });
  } catch {
    throw data(null, { status: 400 });
  }
  let status: 400 | 413 | null = null;
  const files: Promise<void>[] = [];
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) status ??= 413;
    else form.append(name, value);
  });
  parser.on("file", (name, stream, info) => {
    const file = path.join(dir, String(files.length));
    const written = pipeline(stream, createWriteStream(file)).then(async () => {
      const upload = new File([await openAsBlob(file)], info.filename ?? "", { type: info.mimeType });
      spooledFiles.set(upload, file);
      form.append(name, upload);
    });
    written.catch(() => {});
    files.push(written);
  });
  let broken = false;
  const parsed = new Promise<void>((resolve, reject) => {
    parser.once("close", resolve);
    parser.once("error", reject);
  });
  parsed.catch(() => (broken = true));
  try {
    const within = await readCounted(body, limit, async (chunk) => {
      if (broken) return false;
      if (!parser.write(chunk))
        await new Promise((resolve) => parser.once("drain", resolve).once("error", resolve).once("close", resolve));
    });
    if (!within) {
      parser.destroy();
      status = 413;
    }
    if (status === null) {
      parser.end();
      await parsed;
      await Promise.all(files);
    }
  } catch {
    status ??= 400;
  }
  if (status) throw data(null, { status });
  return form;
}

/** NUL never belongs in text, and PostgreSQL refuses it in a string: it is dropped from every field. */
function withoutNul(form: FormData): FormData {
  const clean = new FormData();
  for (const [name, value] of form)
    clean.append(name.replaceAll("\u0000", ""), typeof value === "string" ? value.replaceAll("\u0000", "") : value);
  return clean;
}
