/**
 * `cp .env.example .env && docker compose up` must not run a production server with a signing key and a database
 * password anyone can read in the repository: `node server.ts` with the example file's values and compose.yaml's
 * environment stops at once, naming each variable and how to generate a value, without printing the values. The
 * same file with the secrets replaced starts (on the test run's PostgreSQL).
 *
 * Needs `npm run build` (the test script builds first).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { createDatabase } from "../../scripts/support/postgres.ts";
import { PROJECT_ROOT, startServer } from "../support/server-process.ts";

/** The variables `.env.example` sets (its uncommented lines), as compose's env_file reads them. */
function exampleFile(): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(path.join(PROJECT_ROOT, ".env.example"), "utf8").split("\n")) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

/** What compose.yaml's app services add to the file's values. */
const composeEnvironment = (file: Record<string, string>) => ({
  APP_STAGE: "production",
  TRUST_PROXY: "1",
  DATABASE_URL: `postgres://polyglot:${file.POSTGRES_PASSWORD}@pooler:5432/polyglot`,
  DATABASE_DIRECT_URL: `postgres://polyglot:${file.POSTGRES_PASSWORD}@db:5432/polyglot`,
});

describe("the example configuration in production", () => {
  it("stops the server at start, naming every known secret and how to generate one", { timeout: 40_000 }, async () => {
    const file = exampleFile();
    expect(file.SESSION_SECRET, ".env.example sets SESSION_SECRET").toBeTruthy();
    const server = await startServer({ env: { ...file, ...composeEnvironment(file) }, waitForHealthy: false });
    const code = await Promise.race([
      server.exited,
      new Promise<"running">((resolve) => setTimeout(() => resolve("running"), 20_000)),
    ]);
    if (code === "running") await server.kill("SIGKILL");
    expect(code).toBe(1);
    const output = server
      .logs()
      .map((line) => line.text)
      .join("\n");
    expect(output).toMatch(/SESSION_SECRET: the key looks like a placeholder/);
    expect(output).toMatch(/openssl rand -base64 48/);
    expect(output).toMatch(/DATABASE_URL: its password looks like a placeholder/);
    expect(output).toMatch(/DATABASE_DIRECT_URL: its password looks like a placeholder/);
    expect(output).toMatch(/POSTGRES_PASSWORD in \.env/);
    expect(output).toMatch(/SMTP_URL: its password/);
    for (const name of ["SESSION_SECRET", "POSTGRES_PASSWORD"]) expect(output).not.toContain(file[name]);
  });

  it("starts once the secrets are replaced (the control)", { timeout: 60_000 }, async () => {
    const file = exampleFile();
    const database = await createDatabase(inject("pgUrl"), `known_secrets_${process.pid}_${Date.now()}`);
    const server = await startServer({
      env: {
        ...file,
        ...composeEnvironment(file),
        // The test run's PostgreSQL (trust on loopback, no password in the URL) stands in for compose's.
        DATABASE_URL: database,
        DATABASE_DIRECT_URL: database,
        SESSION_SECRET: randomBytes(48).toString("base64"),
        SMTP_URL: `smtp://user:${randomBytes(16).toString("hex")}@127.0.0.1:9`,
      },
    });
    try {
      const response = await fetch(`${server.baseUrl}/healthz`);
      expect(response.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
