import { describe, expect, it } from "vitest";
import { isRegistration } from "#app/analytics/sign-in-event.ts";
import { retry } from "#app/server/retry.ts";

describe("retry", () => {
  it("makes 3 attempts in total with a growing backoff, then gives up", async () => {
    const times: number[] = [];
    await expect(
      retry(
        async () => {
          times.push(Date.now());
          throw new Error("down");
        },
        { baseDelayMs: 20 },
      ),
    ).rejects.toThrow("down");
    expect(times).toHaveLength(3);
    // Waits of at least 20 and 40 ms (timers never fire meaningfully early; a busy machine can make either longer,
    // so the two gaps are not compared with each other).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(19);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(39);
  });
  it("stops at once when repeating is not safe", async () => {
    let attempts = 0;
    await expect(
      retry(
        async () => {
          attempts++;
          throw new Error("refused");
        },
        { retryable: () => false, baseDelayMs: 1 },
      ),
    ).rejects.toThrow("refused");
    expect(attempts).toBe(1);
  });
  it("returns the first success", async () => {
    let attempts = 0;
    const value = await retry(
      async () => {
        if (++attempts < 2) throw new Error("flaky");
        return "ok";
      },
      { baseDelayMs: 1 },
    );
    expect([value, attempts]).toEqual(["ok", 2]);
  });
});

describe("sign-in analytics", () => {
  const now = new Date("2026-11-21T15:00:00Z");
  it("counts an account created today as a registration", () => {
    expect(isRegistration({ createdAt: new Date("2026-11-21T00:00:01Z") }, now)).toBe(true);
  });
  it("counts any other account as a login", () => {
    expect(isRegistration({ createdAt: new Date("2026-11-20T23:59:59Z") }, now)).toBe(false);
    expect(isRegistration({ createdAt: new Date("2025-11-21T12:00:00Z") }, now)).toBe(false);
  });
});
