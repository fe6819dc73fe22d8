/** The body encoding to send: br when the client takes it, else gzip, else none; `q=0` refuses an encoding. */
export function preferredEncoding(header: string | undefined): "br" | "gzip" | "identity" {
  if (!header) return "identity";
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
