import { createContext, useContext } from "react";

/** The per-response script nonce, provided by the server render; absent in the browser and in static pages. */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);

/** The Content-Security-Policy of a server-rendered page: only scripts carrying this response's nonce may run. */
export function contentSecurityPolicy(
  nonce: string | null,
  extraConnect: string[] = [],
  extraFormAction: string[] = [],
): string {
  return policy(
    nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : `'self' 'unsafe-inline'`,
    extraConnect,
    extraFormAction,
  );
}

/**
 * The policy of a body shared by many visitors, where no per-response nonce is possible: only the inline scripts with
 * these SHA-256 hashes (base64) may run, and what they load.
 */
export function hashedContentSecurityPolicy(
  scriptHashes: string[],
  extraConnect: string[] = [],
  extraFormAction: string[] = [],
): string {
  const hashes = scriptHashes.map((hash) => `'sha256-${hash}'`);
  return policy(
    hashes.length ? `'self' ${hashes.join(" ")} 'strict-dynamic'` : "'none'",
    extraConnect,
    extraFormAction,
  );
}

/** `extraFormAction`: where a form's redirect may lead (browsers check form-action on redirects too): Stripe's pages. */
function policy(scripts: string, extraConnect: string[], extraFormAction: string[]): string {
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(" ")}`,
    // The offline review's service worker (public/sw.js), and nothing else, may run as a worker.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${["'self'", ...extraFormAction].join(" ")}`,
    "frame-ancestors 'none'",
  ].join("; ");
}
