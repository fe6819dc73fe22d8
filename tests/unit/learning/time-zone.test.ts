import { describe, expect, it } from "vitest";
import { settingsOf } from "#app/learning/settings.server.ts";
import { canonicalTimeZone, timeZoneOptions } from "#app/learning/time-zone.ts";

describe("time zone names", () => {
  it("names zones by IANA's current names, whichever spelling Intl or a browser reports", () => {
    for (const [old, current] of [
      ["Europe/Kiev", "Europe/Kyiv"],
      ["Europe/Kyiv", "Europe/Kyiv"],
      ["europe/kiev", "Europe/Kyiv"],
      ["Asia/Calcutta", "Asia/Kolkata"],
      ["Asia/Saigon", "Asia/Ho_Chi_Minh"],
      ["America/Godthab", "America/Nuuk"],
      ["Pacific/Enderbury", "Pacific/Kanton"],
      ["America/Buenos_Aires", "America/Argentina/Buenos_Aires"],
      ["Europe/Berlin", "Europe/Berlin"],
      ["UTC", "UTC"],
    ])
      expect(canonicalTimeZone(old)).toBe(current);
  });

  it("lists Kyiv and Kolkata, not their old names, and every listed zone is one Intl formats in", () => {
    const zones = timeZoneOptions(null);
    expect(zones).toContain("Europe/Kyiv");
    expect(zones).toContain("Asia/Kolkata");
    expect(zones).not.toContain("Europe/Kiev");
    expect(zones).not.toContain("Asia/Calcutta");
    expect(new Set(zones).size).toBe(zones.length);
    for (const zone of zones) expect(canonicalTimeZone(zone)).toBe(zone);
    expect(timeZoneOptions("Europe/Kyiv")).toBe(zones);
  });

  it("reads a zone stored under its old name as the current one", () => {
    const row = {
      newPerDay: 20,
      reviewsPerDay: 200,
      reviewModes: "forward",
      desiredRetention: 0.9,
      dailyGoalMinutes: 10,
    };
    expect(settingsOf({ ...row, timeZone: "Europe/Kiev" }).timeZone).toBe("Europe/Kyiv");
    expect(settingsOf({ ...row, timeZone: null }).timeZone).toBeNull();
  });
});
