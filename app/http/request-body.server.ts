import { data, type MiddlewareFunction } from "react-router";
import { pagePath } from "./request-path";

/** The largest request body accepted (forms are a few KiB; a long term with notes stays far below). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** The import page takes files: 10,000 rows of vocabulary, or a JSON export with its review history. */
export const IMPORT_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/** Pages (without their locale prefix) allowed a larger body than BODY_LIMIT_BYTES. */
const LARGER_BODIES: [RegExp, number][] = [[/^(?:\/[a-z]{2})?\/account\/import$/, IMPORT_BODY_LIMIT_BYTES]];

/** The body limit of a request path (document or `.data` request alike). */
export function bodyLimitFor(pathname: string): number {
  const page = pagePath(pathname);
  return LARGER_BODIES.find(([pattern]) => pattern.test(page))?.[1] ?? BODY_LIMIT_BYTES;
}

const FORM_TYPES = /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

const tooLarge = () => data(null, { status: 413 });

/** A body announced as larger than the limit is refused before anything reads it. */
export const bodyLimitMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  const length = Number(request.headers.get("Content-Length") ?? 0);
  const limit = bodyLimitFor(new URL(request.url).pathname);
  if (request.body && (!Number.isFinite(length) || length > limit)) throw tooLarge();
  return next();
};

/** Reads at most `limit` bytes of a body; null when it is longer. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Buffer | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Stop reading without destroying the connection: the 413 page still has to reach the client.
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
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
 * body that is not a form (JSON, text), 413 above the path's limit (bodyLimitFor; also for a streamed body without a
 * length), 400 for a broken one.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("Content-Type") ?? "";
  if (!FORM_TYPES.test(type)) throw data(null, { status: 415 });
  if (!request.body) return new FormData();
  let bytes: Buffer | null;
  try {
    bytes = await readCapped(request.body, bodyLimitFor(new URL(request.url).pathname));
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

/** NUL never belongs in text, and PostgreSQL refuses it in a string: it is dropped from every field. */
function withoutNul(form: FormData): FormData {
  const clean = new FormData();
  for (const [name, value] of form)
    clean.append(name.replaceAll("\u0000", ""), typeof value === "string" ? value.replaceAll("\u0000", "") : value);
  return clean;
}
