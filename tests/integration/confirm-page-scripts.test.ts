/**
 * The sign-in token never leaves the site: in production with both kinds of analytics configured (PostHog's browser
 * library and an external web-analytics script), the confirm page, which holds a usable token in its address and in
 * its form, carries neither, and tells the browser to send no referrer from it to any other site. Other pages keep their analytics and
 * the site's usual referrer policy. Runs `node server.ts` as ops do (the security headers are the server's).
 *
 * Needs `npm run build` (the test script builds first).
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../support/http-visitor.ts";
import { signInLink, startMailSink } from "../support/mail-sink.ts";
import { startServer, type ServerProcess } from "../support/server-process.ts";

const WEB_ANALYTICS_SRC = "https://analytics.example.org/script.js";
const POSTHOG_KEY = "phc_confirm_page_test";

let mail: Awaited<ReturnType<typeof startMailSink>> | undefined;
let server: ServerProcess | undefined;
/** Stands in for PostHog's API, which the server calls when a sign-in completes. */
let posthog: Server | undefined;

beforeAll(async () => {
  mail = await startMailSink();
  posthog = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "Content-Type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => posthog!.listen(0, "127.0.0.1", resolve));
  server = await startServer({
    env: {
      APP_STAGE: "production",
      SESSION_SECRET: randomBytes(48).toString("base64"),
      SMTP_URL: mail.url,
      LEGAL_NAME: "Polyglot Test Ltd",
      CONTACT_EMAIL: "privacy@polyglot.test",
      POSTHOG_KEY,
      POSTHOG_HOST: `http://127.0.0.1:${(posthog.address() as AddressInfo).port}`,
      WEB_ANALYTICS_SRC,
    },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await mail?.close();
  posthog?.closeAllConnections();
  await new Promise((resolve) => (posthog ? posthog.close(resolve) : resolve(undefined)));
});

/** What a page carries of each analytics: the external script's loader, and PostHog's key for the browser library. */
const analyticsIn = (html: string) => ({
  webAnalytics: html.includes(WEB_ANALYTICS_SRC),
  posthog: html.includes(POSTHOG_KEY),
});

async function freshLink(email: string): Promise<URL> {
  const learner = visitor(server!.baseUrl);
  const asked = Date.now();
  expect((await learner.requestSignIn(email)).status).toBe(302);
  return new URL(signInLink(await mail!.waitFor(email, asked)));
}

describe("the confirm page in production with analytics configured", () => {
  it("other pages carry both analytics and the usual referrer policy (the control)", async () => {
    for (const path of ["/form", "/de/explore"]) {
      const { response, html } = await visitor(server!.baseUrl).page(path);
      expect(response.status).toBe(200);
      expect(analyticsIn(html)).toEqual({ webAnalytics: true, posthog: true });
      expect(response.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
      expect(html).not.toContain('name="referrer"');
    }
  });

  it("/confirm?token=… and its locale-prefixed address carry no analytics and send no referrer elsewhere", async () => {
    const link = await freshLink(`confirm-scripts-${Date.now()}@example.test`);
    const token = link.searchParams.get("token")!;
    for (const path of [`/confirm${link.search}`, `/de/confirm${link.search}`, `/zh/confirm${link.search}`]) {
      const { response, html } = await visitor(server!.baseUrl).page(path);
      expect(response.status, path).toBe(200);
      // The page holds the usable token (its form posts it): exactly why nothing else may run on it.
      expect(html).toContain(`value="${token}"`);
      expect(analyticsIn(html), path).toEqual({ webAnalytics: false, posthog: false });
      // Not no-referrer: browsers would send Origin: null with the page's own form (refused as cross-site).
      expect(response.headers.get("Referrer-Policy"), path).toBe("same-origin");
      expect(html).toContain('<meta name="referrer" content="same-origin"/>');
      expect(html, "the form posts to the path alone").toMatch(/<form[^>]*action="\/(?:[a-z]{2}\/)?confirm"/);
    }
  });

  it("keeps the token usable after the page was opened, and the link signs in", async () => {
    const email = `confirm-scripts-use-${Date.now()}@example.test`;
    const link = await freshLink(email);
    const learner = visitor(server!.baseUrl);
    expect((await learner.page(link.pathname + link.search)).response.status).toBe(200);
    const signedIn = await learner.confirm(link.toString());
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/account/home");
  });

  it("without a token the confirm page still carries no analytics", async () => {
    const { response, html } = await visitor(server!.baseUrl).page("/confirm");
    expect(response.status).toBe(200);
    expect(analyticsIn(html)).toEqual({ webAnalytics: false, posthog: false });
    expect(response.headers.get("Referrer-Policy")).toBe("same-origin");
  });
});
