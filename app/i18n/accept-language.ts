/** The supported locale that best matches an Accept-Language header (`de-CH,de;q=0.9,en;q=0.8`), or null. */
export function matchAcceptLanguage<T extends string>(header: string | null, supported: readonly T[]): T | null {
  if (!header) return null;
  const ranges = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.tag && range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranges) {
    const exact = supported.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const base = supported.find((locale) => locale.toLowerCase() === tag.split("-")[0]);
    if (base) return base;
  }
  return null;
}
