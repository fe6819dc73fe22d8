/**
 * Calls to other services have deadlines: a mail server that hangs costs the learner seconds, not minutes, and ends
 * in the 'Error' toast; analytics that hang never hold up a sign-in. In-process production build, APP_STAGE=production.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, toastsIn } from "../support/app";
import { signInLink, startMailSink } from "../support/mail-sink";

let app: Awaited<ReturnType<typeof startApp>>;
let mail: Awaited<ReturnType<typeof startMailSink>>;
let posthog: Server;
let analyticsRequests = 0;

beforeAll(async () => {
  mail = await startMailSink();
  // An analytics host that accepts requests and never answers.
  posthog = createServer(() => {
    analyticsRequests++;
  });
  await new Promise<void>((resolve) => posthog.listen(0, "127.0.0.1", resolve));
  app = await startApp({
    APP_STAGE: "production",
    // Production refuses any key printed in the repository: a fresh one per run.
    SESSION_SECRET: randomBytes(48).toString("base64"),
    SMTP_URL: mail.url,
    LEGAL_NAME: "Polyglot Test Ltd",
    CONTACT_EMAIL: "privacy@polyglot.test",
    POSTHOG_KEY: "phc_test",
    POSTHOG_HOST: `http://127.0.0.1:${(posthog.address() as AddressInfo).port}`,
  });
});
afterAll(async () => {
  posthog?.closeAllConnections();
  await new Promise((resolve) => posthog?.close(resolve));
  await app?.stop();
  await mail?.close();
});

describe("deadlines on outside calls", () => {
  it(
    "answers within the send deadline with the 'Error' toast when the mail server hangs",
    { timeout: 30_000 },
    async () => {
      const browser = app.browser();
      const started = Date.now();
      const response = await browser.requestSignIn(`stall-${Date.now()}@example.test`);
      const elapsed = Date.now() - started;
      expect(response.status).toBe(302);
      expect(elapsed).toBeLessThan(12_000);
      expect(toastsIn((await browser.page("/form")).html)).toEqual([
        ["Error", "An error occurred while sending the email."],
      ]);
    },
  );

  it("signs in without waiting for analytics that hang", async () => {
    const email = `posthog-${Date.now()}@example.test`;
    const browser = app.browser();
    const requested = Date.now();
    await browser.requestSignIn(email);
    const link = new URL(signInLink(await mail.waitFor(email, requested)));
    const started = Date.now();
    const response = await browser.request(link.pathname, {
      method: "POST",
      form: { token: link.searchParams.get("token")! },
    });
    expect(response.status).toBe(302);
    expect(Date.now() - started).toBeLessThan(2_000);
    // The event was on its way (to the hanging host) while the learner was already signed in.
    await expect.poll(() => analyticsRequests, { timeout: 5_000 }).toBeGreaterThan(0);
  });
});
