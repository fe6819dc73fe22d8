import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveSessionSecrets } from "#app/config/session-secret.server.ts";
import { tempDir } from "#tests/support/temp.ts";

const base = { APP_STAGE: "development", NODE_ENV: "development" };

describe("the session secret", () => {
  const made: string[] = [];
  const dataDir = () => {
    const dir = tempDir("secret-unit");
    made.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("is SESSION_SECRET when given, a comma-separated list rotating keys, and nothing is written", () => {
    const dir = dataDir();
    expect(resolveSessionSecrets({ ...base, DATA_DIR: dir, SESSION_SECRET: "new-key, old-key" })).toEqual({
      secrets: ["new-key", "old-key"],
      note: null,
    });
    expect(existsSync(path.join(dir, ".session-secret"))).toBe(false);
  });

  it("is kept in DATA_DIR/.session-secret (0600) in development and read back on the next start", () => {
    const dir = path.join(dataDir(), "data");
    const first = resolveSessionSecrets({ ...base, DATA_DIR: dir });
    expect(first.note?.message).toContain("session secret created");
    const file = path.join(dir, ".session-secret");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = resolveSessionSecrets({ ...base, DATA_DIR: dir });
    expect(second.secrets).toEqual(first.secrets);
    expect(second.note?.message).toContain("session secret read");
    expect(readFileSync(file, "utf8").trim()).toBe(first.secrets[0]);
  });

  it.each([
    ["tests", { APP_STAGE: "test" }],
    ["vitest", { NODE_ENV: "test" }],
  ])("is random per process for %s, and nothing is written or said", (_name, settings) => {
    const dir = dataDir();
    const result = resolveSessionSecrets({ ...base, ...settings, DATA_DIR: dir });
    expect(result.secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(result.note).toBeNull();
    expect(existsSync(path.join(dir, ".session-secret"))).toBe(false);
  });

  it("falls back to a random one, with a warning, when the data directory cannot hold the file", () => {
    const notADirectory = path.join(dataDir(), "a-file");
    writeFileSync(notADirectory, "");
    const result = resolveSessionSecrets({ ...base, DATA_DIR: notADirectory });
    expect(result.secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(result.note?.level).toBe("warn");
    expect(result.note?.message).toContain("cannot be used");
    expect(result.note?.message).toContain("set SESSION_SECRET");
  });

  it("with DATABASE_URL is kept only in a data directory that exists", () => {
    const missing = path.join(dataDir(), "missing");
    const result = resolveSessionSecrets({ ...base, DATA_DIR: missing, DATABASE_URL: "postgres://db.invalid/app" });
    expect(result.note?.message).toContain(`DATABASE_URL is used and there is no data directory ${missing}`);
    expect(existsSync(missing)).toBe(false);
    const existing = dataDir();
    expect(
      resolveSessionSecrets({ ...base, DATA_DIR: existing, DATABASE_URL: "postgres://db.invalid/app" }).note?.message,
    ).toContain("session secret created");
  });
});
