/**
 * The mail server is down when a learner asks for a sign-in link: the production server answers with the clear
 * 'Error' toast (no 500, no hanging request), and once the mail server is back the same learner asks again and gets
 * the link, because a message that was never sent does not count against the address's rate limit.
 *
 * Needs `npm run build` (the test script builds first).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, signInLink } from "../support/mail-sink.ts";
import { freePort } from "../../scripts/support/postgres.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";
import { toastsIn, visitor } from "../support/http-visitor.ts";

const EMAIL = "smtp.down@example.test";

describe("sign-in while the mail server is down", () => {
  let smtpPort: number;
  let server: ServerProcess | undefined;
  let mail: Awaited<ReturnType<typeof startMailSink>> | undefined;

  beforeAll(async () => {
    smtpPort = await freePort();
    // Nothing listens on the SMTP port yet: the mail server is down from the start.
    server = await startServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }, healthTimeoutMs: 80_000 });
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await mail?.close();
  });

  it(
    "shows the 'Error' toast quickly, and a later request works once the mail server is back",
    { timeout: 60_000 },
    async () => {
      const learner = visitor(server!.baseUrl);
      const started = Date.now();
      const refused = await learner.requestSignIn(EMAIL);
      const elapsed = Date.now() - started;
      expect(refused.status).toBe(302);
      expect(refused.headers.get("Location")).toBe("/form");
      expect(toastsIn((await learner.page("/form")).html)).toEqual([
        ["Error", "An error occurred while sending the email."],
      ]);
      expect(elapsed, "a refused connection is not waited on").toBeLessThan(10_000);
      expect(server!.logs().some((line) => line.json?.message === "sign-in message not sent")).toBe(true);

      mail = await startMailSink({ port: smtpPort });
      const asked = Date.now();
      const sent = await learner.requestSignIn(EMAIL);
      expect(sent.headers.get("Location")).toBe("/form");
      expect(toastsIn((await learner.page("/form")).html)).toEqual([
        ["Check your inbox", "An email has been sent to you, please check your inbox to complete login."],
      ]);
      const confirmed = await learner.confirm(signInLink(await mail.waitFor(EMAIL, asked)));
      expect(confirmed.headers.get("Location")).toBe("/account/home");
      expect((await learner.page("/account/home")).html).toContain(EMAIL);
    },
  );
});
