/**
 * `npm run seed -- <email> --away DAYS` on the embedded database (a PGlite data directory of its own): the learner's
 * histories end DAYS days ago, so what fell due since is due now. The review loop's learners are seeded so
 * (scripts/bench/learners.ts), to have cards left however fast the loop goes.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../support/server-process.ts";
import { tempDir } from "../support/temp.ts";

const DAY_MS = 86_400_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
/** A data folder of the test run's own, removed after the tests. */
function dataFolder() {
  const dir = tempDir("seed-away");
  dirs.push(dir);
  return dir;
}

function seed(...extra: string[]) {
  const dataDir = dataFolder();
  const args = ["scripts/seed-terms.ts", "away@example.test", "--count", "300", "--seed", "7", "--json", ...extra];
  const result = spawnSync(process.execPath, args, {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(result.status, result.stderr).toBe(0);
  const summary = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as {
    insertedTerms: number;
    dueNow: number;
    lastReviewAt: string | null;
  };
  return summary;
}

describe("seeding a learner back after days away", () => {
  it("ends the histories that many days ago and leaves more cards due", { timeout: 120_000 }, () => {
    const started = Date.now();
    const today = seed();
    const away = seed("--away", "30");
    expect(today.insertedTerms).toBe(300);
    expect(away.insertedTerms).toBe(300);
    // Without --away the histories run until now: some term was reviewed within the last day.
    expect(Date.parse(today.lastReviewAt!)).toBeGreaterThan(started - DAY_MS);
    expect(Date.parse(away.lastReviewAt!)).toBeLessThanOrEqual(started - 30 * DAY_MS);
    // The same terms (same --seed), a month of due cards later.
    expect(away.dueNow).toBeGreaterThan(today.dueNow * 1.4);
  });

  it("refuses a number of days out of range", () => {
    const result = spawnSync(process.execPath, ["scripts/seed-terms.ts", "a@example.test", "--away", "366"], {
      cwd: PROJECT_ROOT,
      // Refused before it opens anything: the folder stays empty.
      env: { PATH: process.env.PATH ?? "", DATA_DIR: dataFolder() },
      encoding: "utf8",
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--away must be an integer from 0 to 365");
  });
});
