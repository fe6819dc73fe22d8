import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BASE_URL } from "../../playwright.config";

/** Starts the production build through server.ts, as ops run it, on a fresh data directory. */
export default async function globalSetup() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "polyglot-e2e-"));
  const port = new URL(BASE_URL).port;
  const server = spawn(process.execPath, ["server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: port,
      HOST: "127.0.0.1",
      APP_URL: BASE_URL,
      DATA_DIR: dataDir,
      APP_STAGE: "test",
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${BASE_URL}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("server did not become healthy within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async () => {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  };
}
