import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, toastsIn } from "../support/app";

const pages = (lng: string) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../locales/${lng}/pages.json`), "utf8"));
const common = (lng: string) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../../locales/${lng}/common.json`), "utf8"));
const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

// Local development without SMTP_URL: links go to the server log, and the page must not claim that a mail was sent.
describe("sign-in without mail configured", () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    delete process.env.SMTP_URL;
    delete process.env.SUPABASE_URL;
    app = await startApp({ AUTH_PROVIDER: "local" });
  });
  afterAll(async () => {
    await app?.stop();
    if (app) rmSync(app.dataDir, { recursive: true, force: true });
  });

  for (const lng of ["en", "de", "uk"]) {
    it(`says in ${lng} that the link was written to the server log, in the toast and the persistent panel`, async () => {
      const prefix = lng === "en" ? "" : `/${lng}`;
      const email = `log-${lng}-${Date.now().toString(36)}@example.com`;
      const browser = app.browser();
      const response = await browser.requestSignIn(email, `${prefix}/form`);
      expect(response.status).toBe(302);
      const { html } = await browser.page(`${prefix}/form`);
      const toast = common(lng).toast;
      expect(toastsIn(html)).toEqual([[toast.sentToLog.title, toast.sentToLog.description]]);
      const sent = pages(lng).form.sent;
      expect(html).toContain(escapeHtml(sent.logBody.replace("{{email}}", email)));
      // What the page shows: the document also carries the namespace's translations for the browser, in a script.
      const shown = html.replace(/<script\b[\s\S]*?<\/script>/g, "");
      expect(shown).not.toContain(escapeHtml(toast.sent.description));
      expect(shown).not.toContain(escapeHtml(toast.sent.title));
      // The panel outlives the toast: a reload still names the address.
      const again = await browser.page(`${prefix}/form`);
      expect(toastsIn(again.html)).toEqual([]);
      expect(again.html).toContain(escapeHtml(sent.logBody.replace("{{email}}", email)));
    });
  }
});
