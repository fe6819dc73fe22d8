import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BASE_URL } from "../../playwright.config";
import { startMailSink } from "../support/mail-sink";

/**
 * Starts a real SMTP server (smtp-server on loopback; every message is written to E2E_MAIL_DIR for the tests) and the
 * production build through server.ts, as ops run it, on a fresh data directory. The server trusts X-Forwarded-For so
 * each test can act as its own client address for the per-IP sign-in limit.
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "polyglot-e2e-"));
  const mailDir = path.join(dataDir, "mail");
  process.env.E2E_MAIL_DIR = mailDir;
  const mail = await startMailSink({ dir: mailDir });
  const port = new URL(BASE_URL).port;
  const server = spawn(process.execPath, ["server.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: port,
      HOST: "127.0.0.1",
      APP_URL: BASE_URL,
      DATA_DIR: path.join(dataDir, "db"),
      APP_STAGE: "test",
      SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
      SMTP_URL: mail.url,
      MAIL_FROM: "Polyglot <signin@polyglot.test>",
      TRUST_PROXY: "loopback",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const response = await fetch(`${BASE_URL}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("server did not become healthy within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async () => {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
