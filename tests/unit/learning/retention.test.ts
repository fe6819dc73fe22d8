import { describe, expect, it } from "vitest";
import { default_w, forgetting_curve } from "ts-fsrs";
import { DEFAULT_DECAY, intervalRatio, RETENTION, RETENTION_CHOICES } from "#app/learning/retention.ts";
import { schedulerFor, scheduler } from "#app/learning/stage.ts";
import { settingsSchema } from "#app/learning/settings.server.ts";

describe("the desired retention", () => {
  it("offers every hundredth from 0.80 to 0.97, 0.90 by default", () => {
    expect(RETENTION_CHOICES[0]).toBe("0.80");
    expect(RETENTION_CHOICES.at(-1)).toBe("0.97");
    expect(RETENTION_CHOICES).toHaveLength(18);
    expect(RETENTION_CHOICES).toContain(RETENTION.default.toFixed(2));
  });

  it("states the workload with FSRS-6's own forgetting curve", () => {
    expect(DEFAULT_DECAY).toBe(default_w[20]);
    // A card of stability S falls to retention R after S × ratio(R) days (relative to 0.90, where it takes S days).
    for (const r of [0.8, 0.95, 0.97]) {
      const t = 10 * intervalRatio(r);
      expect(forgetting_curve(default_w, t, 10)).toBeCloseTo(r, 6);
    }
    expect(1 / intervalRatio(0.95)).toBeCloseTo(2.48, 1);
    expect(intervalRatio(0.8)).toBeCloseTo(3.32, 1);
  });

  it("is checked on the server: only the offered choices, none sent keeps the default", () => {
    const form = { newPerDay: "20", reviewsPerDay: "200", timeZone: "UTC", modes: "forward" };
    expect(settingsSchema.parse({ ...form, desiredRetention: "0.85" }).desiredRetention).toBe(0.85);
    expect(settingsSchema.parse(form).desiredRetention).toBe(0.9);
    expect(settingsSchema.parse({ ...form, desiredRetention: " 0.9 " }).desiredRetention).toBe(0.9);
    for (const bad of ["0.79", "0.98", "1", "abc", "0.855", "9e-1", "-0.9", "0.90.1"]) {
      const result = settingsSchema.safeParse({ ...form, desiredRetention: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("settings.errors.desiredRetention");
    }
  });

  it("gives a scheduler aiming at the retention, with the learner's parameters when they are valid", () => {
    expect(schedulerFor(null)).toBe(scheduler);
    expect(schedulerFor(null, 0.85).parameters.request_retention).toBe(0.85);
    expect(schedulerFor([1, 2, 3], 0.9)).toBe(scheduler);
    const w = [...default_w];
    w[0] = 0.1;
    expect(schedulerFor(w, 0.9).parameters.w[0]).toBeCloseTo(0.1, 6);
    expect(schedulerFor(w, 0.9)).toBe(schedulerFor([...w], 0.9));
  });
});
