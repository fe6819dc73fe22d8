import { createContext, useContext } from "react";

/** The per-response script nonce, provided by the server render; absent in the browser and in static pages. */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);

/** The Content-Security-Policy of a server-rendered page: only scripts carrying this response's nonce may run. */
export function contentSecurityPolicy(nonce: string | null, extraConnect: string[] = []): string {
  const scripts = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : `'self' 'unsafe-inline'`;
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...extraConnect].join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
