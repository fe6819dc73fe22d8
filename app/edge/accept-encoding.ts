import { memo } from "../util/memo";

export type Encoding = "br" | "gzip" | "identity";

/**
 * The body encoding to send: br when the client takes it, else gzip, else none; `q=0` refuses an encoding. Browsers
 * send one of a few headers, so answers for headers of up to 256 characters are remembered (parsing cost about 1 % of
 * a kept page's time).
 */
export function preferredEncoding(header: string | undefined): Encoding {
  if (!header) return "identity";
  return header.length <= 256 ? remembered(header) : parse(header);
}
const remembered = memo(64, parse);

function parse(header: string): Encoding {
  const accepted = new Set<string>();
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    if (!q || Number(q.slice(2)) > 0) accepted.add(name);
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip")) return "gzip";
  return "identity";
}
