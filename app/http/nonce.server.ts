import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
/** Random bytes drawn for this many nonces at once: each draw is a call into OpenSSL, the same cost for 16 bytes or 4 KB. */
const POOL_NONCES = 256;
const pool = Buffer.alloc(NONCE_BYTES * POOL_NONCES);
let next = POOL_NONCES;

/**
 * A fresh nonce for a response's Content-Security-Policy: 16 bytes from the system's cryptographic generator, in
 * base64. Each one is used once; the bytes of a pool are drawn anew when all are used.
 */
export function cspNonce(): string {
  if (next === POOL_NONCES) {
    randomFillSync(pool);
    next = 0;
  }
  const start = next++ * NONCE_BYTES;
  return pool.toString("base64", start, start + NONCE_BYTES);
}
