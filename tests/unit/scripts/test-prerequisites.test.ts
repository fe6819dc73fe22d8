import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findPostgresBin } from "#scripts/support/postgres.ts";
import { PROJECT_ROOT } from "#tests/support/paths.ts";

const SCRIPT = path.resolve(PROJECT_ROOT, "scripts/test-prerequisites.sh");
const check = (env: Record<string, string>) =>
  spawnSync("bash", [SCRIPT], { env: { ...process.env, ...env }, encoding: "utf8" });

describe("scripts/test-prerequisites.sh", () => {
  it("accepts the Chromium named by CHROMIUM_PATH and the PostgreSQL named by PG_BIN, as the tests do", () => {
    // Any executable passes the check; the tests start what CHROMIUM_PATH names.
    const result = check({ CHROMIUM_PATH: process.execPath, PG_BIN: findPostgresBin() });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("names a CHROMIUM_PATH or PG_BIN that does not work instead of installing anything", () => {
    const result = check({ CHROMIUM_PATH: "/nonexistent/chromium", PG_BIN: "/nonexistent/bin" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("CHROMIUM_PATH=/nonexistent/chromium is not an executable");
    expect(result.stderr).toContain("PG_BIN=/nonexistent/bin has no initdb, pg_ctl and postgres");
  });
});
