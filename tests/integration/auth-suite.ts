import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, startApp, toastsIn } from "../support/app";
import { signInLink, startMailSink } from "../support/mail-sink";

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}-${counter++}@example.com`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * Waits until a sign-in link asked for now (from `ip`) reaches the mail sink: a message the requests before would
 * have sent had its time to arrive too.
 */
async function mailAfterwards(
  app: Awaited<ReturnType<typeof startApp>>,
  mail: Awaited<ReturnType<typeof startMailSink>>,
  ip: string,
) {
  const control = uniqueEmail("control");
  await app.browser(ip).requestSignIn(control);
  await mail.waitFor(control);
}

/** The sign-in behaviour, run against whichever database `databaseEnv` configures. */
export function defineAuthSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`sign-in on ${databaseName}`, () => {
    let app: Awaited<ReturnType<typeof startApp>>;
    let mail: Awaited<ReturnType<typeof startMailSink>>;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({
        ...(await databaseEnv()),
        SMTP_URL: mail.url,
        MAIL_FROM: "Polyglot <signin@polyglot.test>",
      });
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    async function signIn(email: string, locale = "") {
      const browser = app.browser();
      const started = Date.now();
      await browser.requestSignIn(email, `${locale}/form`);
      const link = new URL(signInLink(await mail.waitFor(email, started)));
      const token = link.searchParams.get("token")!;
      const response = await browser.request(link.pathname, { method: "POST", form: { token } });
      return { browser, response, token, link };
    }

    it("sends a link in the interface language and shows 'Check your inbox'", async () => {
      const email = uniqueEmail("en");
      const browser = app.browser();
      const started = Date.now();
      const response = await browser.requestSignIn(email);
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/form");
      const { html } = await browser.page("/form");
      expect(toastsIn(html)).toEqual([
        ["Check your inbox", "An email has been sent to you, please check your inbox to complete login."],
      ]);
      const message = await mail.waitFor(email, started);
      expect(message.subject).toBe("Your sign-in link for Polyglot");
      expect(message.html).toContain(signInLink(message).replaceAll("&", "&amp;"));
      expect(signInLink(message)).toMatch(new RegExp(`^${APP_URL}/confirm\\?token=[A-Za-z0-9_-]{40,}$`));
      // Read once: the next page has no toast.
      expect(toastsIn((await browser.page("/form")).html)).toEqual([]);
    });

    it("writes the message in German for a German page and links to /de/confirm", async () => {
      const email = uniqueEmail("de");
      const started = Date.now();
      await app.browser().requestSignIn(email, "/de/form");
      const message = await mail.waitFor(email, started);
      expect(message.language).toBe("de");
      expect(message.subject).not.toBe("Your sign-in link for Polyglot");
      expect(signInLink(message)).toContain(`${APP_URL}/de/confirm?token=`);
    });

    it.each(["", "   ", "not-an-address", "a@", "@example.com", "two@@example.com", `${"x".repeat(250)}@example.com`])(
      "refuses the address %j with the 'Email' toast and sends nothing",
      async (email) => {
        const before = mail.received.length;
        const browser = app.browser();
        await browser.requestSignIn(email);
        expect(toastsIn((await browser.page("/form")).html)).toEqual([["Email", "please provide a valid email"]]);
        expect(mail.received.length).toBe(before);
      },
    );

    it("answers the same for a known and an unknown address", async () => {
      const known = uniqueEmail("known");
      await signIn(known);
      await app.db.execute(sql`delete from rate_limit_events`);
      const answers = [];
      for (const email of [known, uniqueEmail("unknown")]) {
        const browser = app.browser();
        const response = await browser.requestSignIn(email);
        answers.push([response.status, response.headers.get("Location"), toastsIn((await browser.page("/form")).html)]);
      }
      expect(answers[0]).toEqual(answers[1]);
    });

    it("stores only the hash of a token, with expiry and use time", async () => {
      const email = uniqueEmail("hash");
      const started = Date.now();
      await app.browser().requestSignIn(email);
      const token = new URL(signInLink(await mail.waitFor(email, started))).searchParams.get("token")!;
      const { rows } = await app.db.execute(sql`select * from login_tokens where email = ${email}`);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(rows[0]!.token_hash).toBe(sha256(token));
      const lifetime =
        new Date(rows[0]!.expires_at as string).getTime() - new Date(rows[0]!.created_at as string).getTime();
      expect(lifetime).toBe(60 * 60 * 1000);
      expect(rows[0]!.used_at).toBeNull();
    });

    it("does not consume the link on GET /confirm; the POST signs in and the link works once", async () => {
      const email = uniqueEmail("once");
      const browser = app.browser();
      const started = Date.now();
      await browser.requestSignIn(email);
      const link = new URL(signInLink(await mail.waitFor(email, started)));
      for (let i = 0; i < 2; i++) {
        const { response, html } = await browser.page(link.pathname + link.search);
        expect(response.status).toBe(200);
        expect(html).toContain("Confirm and sign in");
      }
      const token = link.searchParams.get("token")!;
      const first = await browser.request("/confirm", { method: "POST", form: { token } });
      expect(first.status).toBe(302);
      expect(first.headers.get("Location")).toBe("/account/home");
      const session = first.headers.getSetCookie().find((c) => c.startsWith("__session="))!;
      expect(session).toMatch(/HttpOnly/i);
      expect(session).toMatch(/SameSite=Lax/i);
      expect(Number(session.match(/Max-Age=(\d+)/i)?.[1])).toBe(400 * 24 * 60 * 60);
      expect((await browser.request("/account/home")).status).toBe(200);

      const second = await app.browser().request("/confirm", { method: "POST", form: { token } });
      expect(second.headers.get("Location")).toBe("/error?reason=used");
      const { html } = await app.browser().page("/error?reason=used");
      expect(html).toContain("already been used");
      expect(html).toContain('href="/form"');
    });

    it("refuses an expired link with a translated explanation", async () => {
      const email = uniqueEmail("expired");
      const started = Date.now();
      await app.browser().requestSignIn(email, "/uk/form");
      const link = new URL(signInLink(await mail.waitFor(email, started)));
      await app.db.execute(
        sql`update login_tokens set expires_at = now() - interval '1 second' where email = ${email}`,
      );
      const response = await app
        .browser()
        .request(link.pathname, { method: "POST", form: { token: link.searchParams.get("token")! } });
      expect(response.headers.get("Location")).toBe("/uk/error?reason=expired");
      const { html } = await app.browser().page("/uk/error?reason=expired");
      expect(html).toContain('lang="uk"');
      expect(html).toContain('href="/uk/form"');
    });

    it.each(["", "short", "x".repeat(43), "../../etc/passwd", "A".repeat(500)])(
      "refuses the forged token %j",
      async (token) => {
        const response = await app.browser().request("/confirm", { method: "POST", form: { token } });
        expect(response.headers.get("Location")).toBe("/error?reason=invalid");
        expect(response.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
      },
    );

    it("returns the learner to the guarded page they asked for, keeping its locale prefix and query", async () => {
      const browser = app.browser();
      const guarded = await browser.request("/de/account/explore/member?q=haus");
      expect(guarded.status).toBe(302);
      expect(guarded.headers.get("Location")).toBe("/de/form");
      const email = uniqueEmail("return");
      const started = Date.now();
      await browser.requestSignIn(email, "/de/form");
      const link = new URL(signInLink(await mail.waitFor(email, started)));
      const response = await browser.request(link.pathname, {
        method: "POST",
        form: { token: link.searchParams.get("token")! },
      });
      expect(response.headers.get("Location")).toBe("/de/account/explore/member?q=haus");
    });

    it("keeps a user record with id, email and created_at; signing out deletes the session", async () => {
      const email = uniqueEmail("logout");
      const { browser } = await signIn(email);
      const { rows: users } = await app.db.execute(sql`select id, email, created_at from users where email = ${email}`);
      expect(users).toHaveLength(1);
      const { rows: before } = await app.db.execute(
        sql`select count(*)::int as n from sessions where user_id = ${users[0]!.id}`,
      );
      expect(before[0]!.n).toBe(1);
      const response = await browser.request("/logout", { method: "POST", form: {} });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      expect(response.headers.getSetCookie().find((c) => c.startsWith("__session="))).toMatch(/Max-Age=0/i);
      const { rows: after } = await app.db.execute(
        sql`select count(*)::int as n from sessions where user_id = ${users[0]!.id}`,
      );
      expect(after[0]!.n).toBe(0);
      expect(toastsIn((await browser.page("/")).html).map(([title]) => title)).toContain("Signed out");
      expect((await browser.request("/account/home")).headers.get("Location")).toBe("/form");
    });

    it("limits one address to one message a minute and five an hour, across requests", async () => {
      const email = uniqueEmail("limit");
      const started = Date.now();
      await app.browser().requestSignIn(email);
      await mail.waitFor(email, started);
      const browser = app.browser();
      await browser.requestSignIn(email);
      expect(toastsIn((await browser.page("/form")).html)[0]?.[0]).toBe("Too many requests");
      expect(mail.received.filter((m) => m.to.includes(email))).toHaveLength(1);
      // Four more earlier this hour, each more than a minute ago: the hourly limit is reached.
      await app.db.execute(
        sql`update rate_limit_events set created_at = now() - interval '50 minutes' where key = ${`signin:email:${email}`}`,
      );
      for (let i = 0; i < 4; i++)
        await app.db.execute(
          sql`insert into rate_limit_events (key, created_at) values (${`signin:email:${email}`}, now() - interval '40 minutes')`,
        );
      const again = app.browser();
      await again.requestSignIn(email);
      expect(toastsIn((await again.page("/form")).html)[0]?.[0]).toBe("Too many requests");
      await app.db.execute(
        sql`update rate_limit_events set created_at = now() - interval '61 minutes' where key = ${`signin:email:${email}`}`,
      );
      const later = app.browser();
      await later.requestSignIn(email);
      expect(toastsIn((await later.page("/form")).html)[0]?.[0]).toBe("Check your inbox");
    });

    it("limits one client IP to 20 sign-in requests an hour", async () => {
      const browser = app.browser("192.0.2.55");
      for (let i = 0; i < 20; i++) {
        await browser.requestSignIn(uniqueEmail("ip"));
        expect(toastsIn((await browser.page("/form")).html)[0]?.[0]).toBe("Check your inbox");
      }
      const before = mail.received.length;
      await browser.requestSignIn(uniqueEmail("ip"));
      expect(toastsIn((await browser.page("/form")).html)[0]?.[0]).toBe("Too many requests");
      expect(mail.received.length).toBe(before);
    });

    it("tells a bot that fills the honeypot the same, and sends nothing", async () => {
      const email = uniqueEmail("bot");
      const browser = app.browser();
      const { html } = await browser.page("/form");
      const validFrom = html.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
      await browser.request("/form", {
        method: "POST",
        form: { email, name__confirm: "http://spam.example", from__confirm: validFrom },
      });
      expect(toastsIn((await browser.page("/form")).html)[0]?.[0]).toBe("Check your inbox");
      await mailAfterwards(app, mail, "203.0.113.1");
      expect(mail.received.some((m) => m.to.includes(email))).toBe(false);
    });

    it("shows the 'Error' toast when the mail server refuses the message", async () => {
      const browser = app.browser();
      await browser.requestSignIn(uniqueEmail("refuse"));
      expect(toastsIn((await browser.page("/form")).html)).toEqual([
        ["Error", "An error occurred while sending the email."],
      ]);
    });

    it("refuses cross-site posts, resource routes included, and sends nothing", async () => {
      const email = uniqueEmail("csrf");
      const browser = app.browser();
      const { html } = await browser.page("/form");
      const validFrom = html.match(/name="from__confirm" value="([^"]+)"/)?.[1] ?? "";
      const form = { email, name__confirm: "", from__confirm: validFrom };
      const evil = await browser.request("/form", {
        method: "POST",
        form,
        headers: { Origin: "https://evil.example" },
      });
      expect(evil.status).toBeGreaterThanOrEqual(400);
      expect(evil.status).toBeLessThan(500);
      const fetchSite = await browser.request("/form", {
        method: "POST",
        form,
        headers: { "Sec-Fetch-Site": "cross-site", Origin: APP_URL },
      });
      expect(fetchSite.status).toBe(403);
      expect(await fetchSite.text()).toContain("This request was refused because it did not come from this site.");
      const locale = await browser.request("/locale", {
        method: "POST",
        form: { lng: "de", redirectTo: "/" },
        headers: { Origin: "https://evil.example" },
      });
      expect(locale.status).toBe(403);
      expect(locale.headers.get("Set-Cookie")).toBeNull();
      // React Router refuses a UI route's foreign-origin action itself (400) before the app's own check (403).
      const logout = await browser.request("/logout", { method: "POST", form: {}, headers: { Origin: "null" } });
      expect([400, 403]).toContain(logout.status);
      await mailAfterwards(app, mail, "203.0.113.2");
      expect(mail.received.some((m) => m.to.includes(email))).toBe(false);
    });

    it.each([
      ["__session", "forged-session-id"],
      ["__session", "eyJmb28iOiJiYXIifQ%3D%3D.c2lnbmF0dXJl"],
      ["toast", "W3siaWQiOiIxIiwidGl0bGUiOiJ4In1d.forged"],
      ["redirect-to", "Ii8vZXZpbC5leGFtcGxlIg%3D%3D.forged"],
      ["lng", "%%%"],
    ])("treats a tampered %s cookie as absent, never as an error", async (name, value) => {
      const browser = app.browser();
      browser.jar.set(name, value);
      const home = await browser.request("/");
      expect(home.status).toBe(200);
      const html = await home.text();
      expect(toastsIn(html)).toEqual([]);
      expect(html).toContain('href="/form"');
      expect((await browser.request("/account/home")).headers.get("Location")).toBe("/form");
    });

    const craftedReturnPaths = [
      "//evil.example",
      "//evil.example/account",
      "///evil.example",
      "////evil.example",
      "/\\evil.example",
      "\\evil.example",
      "/\\/evil.example",
      "https://evil.example",
      "http://evil.example",
      "HTTPS://EVIL.EXAMPLE/x",
      "https:evil.example",
      "http:/\\evil.example",
      "//evil.example%2f..",
      "/%2f%2fevil.example",
      "%2f%2fevil.example",
      "/%5cevil.example",
      "/%5C%5Cevil.example",
      "%2F%5Cevil.example",
      "javascript:alert(document.cookie)",
      "JAVASCRIPT:alert(1)",
      "javascript%3Aalert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD4=",
      "vbscript:msgbox(1)",
      "/\tevil.example",
      "/\n//evil.example",
      "//evil.example@localhost",
      "//localhost@evil.example",
      "https://localhost:3999.evil.example",
      "//%09/evil.example",
      "/.//evil.example",
      "mailto:attacker@evil.example",
    ];
    it.each(craftedReturnPaths)("never redirects off the site for the crafted return path %j", async (crafted) => {
      const browser = app.browser();
      const response = await browser.request("/locale", { method: "POST", form: { lng: "uk", redirectTo: crafted } });
      expect(response.status).toBe(302);
      const location = response.headers.get("Location") ?? "";
      const resolved = new URL(location, APP_URL);
      expect(resolved.origin).toBe(APP_URL);
      expect(location.startsWith("/")).toBe(true);
      expect(location.startsWith("//")).toBe(false);
      expect(location).not.toMatch(/\\/);
    });

    it("after signing in with a tampered return cookie, lands on the learner's home", async () => {
      const email = uniqueEmail("tamper");
      const browser = app.browser();
      browser.jar.set("redirect-to", "Ii8vZXZpbC5leGFtcGxlIg%3D%3D.forged");
      const started = Date.now();
      await browser.requestSignIn(email);
      const link = new URL(signInLink(await mail.waitFor(email, started)));
      const response = await browser.request("/confirm", {
        method: "POST",
        form: { token: link.searchParams.get("token")! },
      });
      expect(response.headers.get("Location")).toBe("/account/home");
    });
  });
}
