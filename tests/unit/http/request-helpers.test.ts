import { isbot } from "isbot";
import { describe, expect, it } from "vitest";
import { isBot } from "#app/http/bots.server.ts";
import { cspNonce } from "#app/http/nonce.server.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("per-request helpers that remember", () => {
  it("tells bots as isbot does, the first time and from memory, for short and very long user agents", () => {
    const long = `${CHROME} ${"x".repeat(600)}`;
    const longBot = `${GOOGLEBOT} ${"x".repeat(600)}`;
    for (let round = 0; round < 2; round++)
      for (const agent of [CHROME, GOOGLEBOT, "curl/8.5.0", long, longBot])
        expect(isBot(agent), agent.slice(0, 40)).toBe(isbot(agent));
    expect(isBot(GOOGLEBOT)).toBe(true);
    expect(isBot(CHROME)).toBe(false);
    expect(isBot(null)).toBe(false);
    expect(isBot("")).toBe(false);
  });

  it("gives every response a nonce of its own: 16 random bytes in base64, never repeated across pools", () => {
    const nonces = Array.from({ length: 2_000 }, () => cspNonce());
    expect(new Set(nonces).size).toBe(nonces.length);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });
});
