import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { BASE_URL } from "../../playwright.config";
import { fakeStripeEnv, startFakeStripe } from "../support/fake-stripe";
import { startMailSink } from "../support/mail-sink";
import { openRunTempDir, tempDir } from "../support/temp";
import { SERVER_LOG } from "./server-log";

/**
 * Starts a real SMTP server (smtp-server on loopback; every message is written to E2E_MAIL_DIR for the tests) and the
 * production build through server.ts, as ops run it, on a fresh data directory in the run's temp folder (checked empty
 * by global-teardown). The server trusts X-Forwarded-For so each test can act as its own client address for the
 * per-IP sign-in limit. Its log goes to test-results/server.log, shown by the server-log reporter for failed tests.
 */
export default async function globalSetup() {
  openRunTempDir();
  const dataDir = tempDir("e2e");
  const mailDir = path.join(dataDir, "mail");
  process.env.E2E_MAIL_DIR = mailDir;
  mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const serverLog = createWriteStream(SERVER_LOG);
  const mail = await startMailSink({ dir: mailDir }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  // Stripe's API and hosted pages, faked on loopback (the real service cannot be reached from tests).
  const stripe = await startFakeStripe({ webhookUrl: `${BASE_URL}/webhooks/stripe` }).catch(async (error: unknown) => {
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
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
      LOG_LEVEL: "info",
      ...fakeStripeEnv(stripe.url),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout.pipe(serverLog, { end: false });
  server.stderr.pipe(serverLog, { end: false });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  // Should the runner end without its teardown (a crash), the server and its files go with it.
  const killOnExit = () => {
    server.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once("exit", killOnExit);

  const teardown = async () => {
    process.off("exit", killOnExit);
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      await exited;
    }
    await mail.close();
    await stripe.close();
    serverLog.end();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (server.exitCode !== null)
        throw new Error(`server exited with ${server.exitCode}; its log is in ${SERVER_LOG}`);
      try {
        const response = await fetch(`${BASE_URL}/readyz`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`server did not become healthy within 60 s; its log is in ${SERVER_LOG}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
