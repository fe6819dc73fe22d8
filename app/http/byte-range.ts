/**
 * The one byte range of a `Range` header (`bytes=0-`, `bytes=100-199`, `bytes=-500`) within a body of `size` bytes, as
 * [first, last]; null to answer the whole body (no header, several ranges, another unit, a malformed one: RFC 9110
 * lets a server ignore those), "unsatisfiable" when the range starts past the end.
 */
export function byteRange(header: string | null, size: number): [number, number] | "unsatisfiable" | null {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header?.trim() ?? "");
  if (!match) return null;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return null;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "unsatisfiable";
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== "" && Number(to) < start) return null;
  if (start >= size) return "unsatisfiable";
  return [start, end];
}
