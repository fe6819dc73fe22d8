import type { TextInput } from "./texts.server";

/** The largest text accepted, in bytes of UTF-8: a long chapter, and well inside the 64 KiB request-body limit. */
export const TEXT_LIMIT_BYTES = 50_000;
export const TITLE_LIMIT = 200;

/** Field errors as translation keys in the `reading` namespace. */
export type TextErrors = Partial<Record<"title" | "body" | "file", string>>;
export type ParsedText =
  { value: TextInput; errors: null; status: 200 } | { value: null; errors: TextErrors; status: 400 | 413 | 415 };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** A `.txt` upload: plain text, at most TEXT_LIMIT_BYTES, valid UTF-8 (a byte-order mark is dropped). */
async function readUpload(file: File): Promise<{ body: string } | { error: string; status: 400 | 413 | 415 }> {
  const plain = /\.txt$/i.test(file.name) && (file.type === "" || /^text\/plain\b/i.test(file.type));
  if (!plain) return { error: "errors.fileType", status: 415 };
  if (file.size > TEXT_LIMIT_BYTES) return { error: "errors.tooLong", status: 413 };
  try {
    return { body: strictUtf8.decode(await file.arrayBuffer()).replace(/^\uFEFF/, "") };
  } catch {
    return { error: "errors.encoding", status: 400 };
  }
}

/** The fields of a text's form as sent (a repeated field counts with its first value). */
export type TextFormFields = { title?: unknown; body?: unknown; file?: unknown };
const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/** The title and the text, pasted or uploaded (an upload wins over an empty text area), checked on the server. */
export async function parseTextForm(fields: TextFormFields): Promise<ParsedText> {
  const sentTitle = first(fields.title);
  const title = (typeof sentTitle === "string" ? sentTitle : "").trim().replace(/\s+/g, " ");
  const sentBody = first(fields.body);
  let body = typeof sentBody === "string" ? sentBody : "";
  const errors: TextErrors = {};
  let status: 400 | 413 | 415 = 400;
  const file = first(fields.file);
  if (file instanceof File && file.size + file.name.length > 0 && !body.trim()) {
    const upload = await readUpload(file);
    if ("error" in upload) {
      errors.file = upload.error;
      status = upload.status;
    } else body = upload.body;
  }
  body = body.replace(/\r\n?/g, "\n").trim();
  if (!title) errors.title = "errors.titleRequired";
  else if (title.length > TITLE_LIMIT) errors.title = "errors.titleTooLong";
  if (!errors.file) {
    if (!body) errors.body = "errors.bodyRequired";
    else if (new TextEncoder().encode(body).length > TEXT_LIMIT_BYTES) {
      errors.body = "errors.tooLong";
      status = 413;
    }
  }
  if (Object.keys(errors).length > 0) return { value: null, errors, status };
  return { value: { title, body }, errors: null, status: 200 };
}
