/**
 * The one gate every redirect goes through. A relative path on this site passes; an absolute URL to another origin
 * passes only when the caller flags it as external; a protocol other than http, https or mailto never passes.
 */
const ALLOWED_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
const INTERNAL_BASE = "http://internal.invalid";

export type SafeTargetOptions = {
  /** The caller means to leave the site (e.g. a configured external route rule). */
  external?: boolean;
  /** The site's own origin; an absolute URL on it counts as internal. */
  origin?: string;
};

/** Returns a target that is safe to navigate to, or null when it must be refused. */
export function safeTarget(to: unknown, options: SafeTargetOptions = {}): string | null {
  if (typeof to !== "string") return null;
  const target = to.trim();
  // Control characters and backslashes are how browsers are tricked into reading `/\evil` as `//evil`.
  if (!target || /[\u0000-\u001f\u007f\\]/.test(target)) return null;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return null;
  }
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) return null;

  if (target.startsWith("/") && !target.startsWith("//") && !decoded.startsWith("//")) {
    const url = new URL(target, INTERNAL_BASE);
    // Dot segments can collapse into a protocol-relative path: `/.//evil` normalises to `//evil`.
    if (url.origin !== INTERNAL_BASE || url.pathname.startsWith("//")) return null;
    return url.pathname + url.search + url.hash;
  }

  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  if (options.origin && url.origin === new URL(options.origin).origin)
    return safeTarget(url.pathname + url.search + url.hash);
  return options.external ? url.href : null;
}
