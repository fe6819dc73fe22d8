import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyAnnouncementHeard } from "../support/announcements";
import { signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";

/** The hidden session id of the sign-out form next to a device name on the profile page. */
function sessionIdOf(html: string, device: string): string {
  const item = html.split("<li").find((part) => textOf(part).includes(device));
  const id = item?.match(/name="sessionId" value="([^"]+)"/)?.[1];
  if (!id) throw new Error(`no session of ${device} on the page`);
  return id;
}

/** Account control on the profile page, run against whichever database `databaseEnv` configures. */
export function defineAccountSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`the profile and account deletion on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;

    beforeAll(async () => {
      mail = await startMailSink();
      app = await startApp({
        ...(await databaseEnv()),
        SMTP_URL: mail.url,
        LEGAL_NAME: "Polyglot Test Operator GmbH",
        CONTACT_EMAIL: "privacy@operator.test",
      });
    });
    afterAll(async () => {
      await app?.stop();
      await mail?.close();
    });

    /** Signs in on another device: the one-link-a-minute limit of an address is lifted first. */
    async function signIn(email: string, userAgent?: string): Promise<Browser> {
      await app.db.execute(sql`delete from rate_limit_events where key = ${`signin:email:${email}`}`);
      return signedInBrowser(app, mail, email, userAgent);
    }

    it("shows the address and every session with its device in plain words and its dates", async () => {
      const desktop = await signIn("profile@example.com", FIREFOX_LINUX);
      await signIn("profile@example.com", SAFARI_IPHONE);
      const { response, html } = await desktop.page("/account/profile");
      expect(response.status).toBe(200);
      const text = textOf(html);
      expect(text).toContain("profile@example.com");
      expect(text).toContain("Firefox on Linux (this device)");
      expect(text).toContain("Safari on iOS");
      expect(text).toMatch(/signed in \w+ \d+, \d{4}/);
      expect(html).toContain('href="/account/export?format=json"');
      expect(html).toContain('href="/account/export?format=csv"');
      expect(html).toContain('href="/account/profile/delete"');
      const german = textOf((await desktop.page("/de/account/profile")).html);
      expect(german).toContain("Firefox unter Linux (dieses Gerät)");
      expect(german).toContain("Safari unter iOS");
    });

    it("shows a session's dates in the learner's time zone, with its name", async () => {
      const browser = await signIn("zoned@example.com");
      expect(textOf((await browser.page("/account/profile")).html)).toMatch(
        /signed in \w+ \d+, \d{4}, [\d:]+\s[AP]M\sUTC/,
      );
      const saved = await browser.request("/account/settings", {
        method: "POST",
        form: { newPerDay: "20", reviewsPerDay: "200", timeZone: "Asia/Tokyo", modes: "forward", intent: "settings" },
      });
      expect(saved.status).toBe(302);
      expect(textOf((await browser.page("/account/profile")).html)).toMatch(
        /signed in \w+ \d+, \d{4}, [\d:]+\s[AP]M\sGMT\+9/,
      );
    });

    it("signs out one other device, then all other devices, keeping this one", async () => {
      const desktop = await signIn("devices@example.com", FIREFOX_LINUX);
      const phone = await signIn("devices@example.com", SAFARI_IPHONE);
      const tablet = await signIn("devices@example.com");
      const { html } = await desktop.page("/account/profile");
      const ended = await desktop.request("/account/profile", {
        method: "POST",
        form: { intent: "signOutSession", sessionId: sessionIdOf(html, "Safari on iOS") },
      });
      expect(ended.status).toBe(302);
      expect(ended.headers.get("Location")).toBe("/account/profile");
      const after = await desktop.page("/account/profile");
      expect(toastsIn(after.html)[0]?.[0]).toBe("Session ended");
      expect(textOf(after.html)).not.toContain("Safari on iOS");
      expect((await phone.request("/account/profile")).status).toBe(302);
      expect((await tablet.request("/account/profile")).status).toBe(200);

      const others = await desktop.request("/de/account/profile", {
        method: "POST",
        form: { intent: "signOutOthers" },
      });
      expect(others.status).toBe(302);
      expect(toastsIn((await desktop.page("/de/account/profile")).html)[0]).toEqual([
        "Andere Geräte abgemeldet",
        "1 andere Sitzung wurde beendet.",
      ]);
      expect((await tablet.request("/account/profile")).status).toBe(302);
      expect((await desktop.request("/account/profile")).status).toBe(200);

      const again = await desktop.request("/account/profile", {
        method: "POST",
        form: { intent: "signOutSession", sessionId: "no-such-session" },
      });
      expect(again.status).toBe(302);
      expect(toastsIn((await desktop.page("/account/profile")).html)[0]?.[0]).toBe("Already signed out");
      const unknown = await desktop.request("/account/profile", { method: "POST", form: { intent: "explode" } });
      expect(unknown.status).toBe(400);
    });

    it("signs this browser out when it ends its own session", async () => {
      const browser = await signIn("own-session@example.com", FIREFOX_LINUX);
      const { html } = await browser.page("/account/profile");
      const response = await browser.request("/account/profile", {
        method: "POST",
        form: { intent: "signOutSession", sessionId: sessionIdOf(html, "Firefox on Linux") },
      });
      expect(response.headers.get("Location")).toBe("/");
      expect(browser.jar.has("__session")).toBe(false);
    });

    it("updates a session's last-seen time at most once every few minutes", async () => {
      await signIn("last-seen@example.com");
      const browser = await signIn("last-seen@example.com");
      const lastSeen = async () => {
        const { rows } = await app.db.execute(
          sql`select s.last_seen_at as seen from sessions s join users u on u.id = s.user_id where u.email = 'last-seen@example.com' order by s.last_seen_at desc`,
        );
        return rows.map((row) => new Date(row.seen as string).getTime());
      };
      /**
       * A change of the sessions' rows made outside the server, once the server has heard of it: PostgreSQL announces it
       * to the server's listening connection shortly after commit (the embedded database at commit), and until then the
       * server may answer from the session it keeps. Announcements arrive in the order of their commits, so a marker
       * announced after the change arrives after it.
       */
      const setLastSeen = async (at: Date) => {
        await app.db.execute(
          sql`update sessions set last_seen_at = ${at.toISOString()} where user_id = (select id from users where email = 'last-seen@example.com')`,
        );
        const changes = app.learnerChanges();
        if (!changes) throw new Error("the app hears no announcements of learner changes");
        await everyAnnouncementHeard(app.db, changes);
      };
      const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
      await setLastSeen(tenMinutesAgo);
      await browser.page("/account/profile");
      const [touched, untouched] = await lastSeen();
      expect(touched).toBeGreaterThan(Date.now() - 60_000);
      expect(untouched).toBe(tenMinutesAgo.getTime());
      const twoMinutesAgo = new Date(Date.now() - 2 * 60_000);
      await setLastSeen(twoMinutesAgo);
      await browser.page("/account/profile");
      expect(await lastSeen()).toEqual([twoMinutesAgo.getTime(), twoMinutesAgo.getTime()]);
    });

    it("refuses the deletion with 400 and a translated message until the confirmation word is typed", async () => {
      const browser = await signIn("hesitant@example.com");
      const page = await browser.page("/de/account/profile/delete");
      expect(textOf(page.html)).toContain("Gib zur Bestätigung LÖSCHEN ein");
      for (const confirmation of ["", "DELETE", "löschen bitte"]) {
        const response = await browser.request("/de/account/profile/delete", {
          method: "POST",
          form: { confirmation },
        });
        expect(response.status, confirmation).toBe(400);
        expect(textOf(await response.text())).toContain("Gib LÖSCHEN ein, um das Löschen zu bestätigen.");
      }
      const { rows } = await app.db.execute(
        sql`select count(*)::int as n from users where email = 'hesitant@example.com'`,
      );
      expect(rows[0]!.n).toBe(1);
    });

    it("deletes the account with everything of the learner, e-mails a confirmation and signs every device out", async () => {
      const email = "leaving@example.com";
      const browser = await signIn(email, FIREFOX_LINUX);
      const otherDevice = await signIn(email, SAFARI_IPHONE);
      const stays = await signIn("staying@example.com");
      for (const learner of [browser, stays]) {
        await learner.request("/account/terms/new", {
          method: "POST",
          form: {
            text: "farewell",
            meaning: "goodbye",
            partOfSpeech: "noun",
            notes: "",
            sentence: "A long farewell.",
            translation: "",
          },
        });
        await learner.request("/account/explore/public", {
          method: "POST",
          form: { intent: "addAll", language: "en", level: "beginner" },
        });
      }
      const { rows: due } = await app.db.execute(
        sql`select t.id from terms t join users u on u.id = t.user_id where u.email = ${email} limit 1`,
      );
      await browser.request("/account/review", { method: "POST", form: { termId: String(due[0]!.id), grade: "good" } });
      // A sign-in link asked for again: a login token and rate-limit rows keyed by the address.
      await app.browser().requestSignIn(email);

      const { rows: before } = await app.db.execute(sql`select id from users where email = ${email}`);
      const userId = String(before[0]!.id);
      const { rows: termRows } = await app.db.execute(sql`select id from terms where user_id = ${userId}`);
      const marks = [email, userId, ...termRows.map((row) => String(row.id))];
      expect(Object.keys(await rowsMentioning(app, marks))).toEqual(
        expect.arrayContaining([
          "users",
          "sessions",
          "terms",
          "term_examples",
          "review_logs",
          "login_tokens",
          "rate_limit_events",
        ]),
      );

      const started = Date.now();
      const response = await browser.request("/account/profile/delete", {
        method: "POST",
        form: { confirmation: " delete " },
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/");
      expect(browser.jar.has("__session")).toBe(false);
      expect(toastsIn((await browser.page("/")).html)).toContainEqual([
        "Account deleted",
        "Your account and everything in it are deleted. A confirmation is on its way to your inbox.",
      ]);
      const confirmation = await mail.waitFor(email, started);
      expect(confirmation.subject).toBe("Your Polyglot account is deleted");
      expect((await otherDevice.request("/account/profile")).status).toBe(302);

      expect(await rowsMentioning(app, marks)).toEqual({});
      const { rows: others } = await app.db.execute(
        sql`select count(*)::int as n from terms t join users u on u.id = t.user_id where u.email = 'staying@example.com'`,
      );
      expect(others[0]!.n).toBeGreaterThan(1);
      // Two learners adding a shipped list of a hundred terms each, and a scan of every table for the marks.
    }, 60_000);

    it("accepts the confirmation word of the page's language, ignoring case and accents", async () => {
      const browser = await signIn("ayrilan@example.com");
      const response = await browser.request("/tr/account/profile/delete", {
        method: "POST",
        form: { confirmation: "sil" },
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/tr");
      expect((await mail.waitFor("ayrilan@example.com", Date.now() - 5_000)).subject).toBe("Polyglot hesabın silindi");
    });

    it("names the configured operator and contact address on the legal pages, and links the privacy promises", async () => {
      const visitor = app.browser();
      const privacy = await visitor.page("/company/privacy");
      expect(textOf(privacy.html)).toContain("This installation of Polyglot is run by Polyglot Test Operator GmbH.");
      expect(privacy.html).toContain('href="mailto:privacy@operator.test"');
      expect(textOf(privacy.html)).toContain("write to privacy@operator.test");
      for (const target of ["/account/profile", "/account/export?format=json", "/account/profile/delete"])
        expect(privacy.html).toContain(`href="${target}"`);
      const terms = await visitor.page("/de/company/terms-of-use");
      expect(textOf(terms.html)).toContain("betrieben von Polyglot Test Operator GmbH");
      expect(terms.html).toContain('href="mailto:privacy@operator.test"');
    });
  });
}

/**
 * Every table of the database, searched whole-row for any of `marks` (the learner's address, user id, term ids):
 * tables added later are covered without naming them here. Returns the tables that still hold such a row.
 */
async function rowsMentioning(app: App, marks: string[]): Promise<Record<string, number>> {
  const { rows: tables } = await app.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const found: Record<string, number> = {};
  // One pattern of all the marks, read once per row: the shipped lists and dictionaries make some tables large.
  const pattern = marks.map((mark) => mark.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  // A search of whole tables (the shipped dictionaries hold many rows), not one of the app's requests: the app's
  // statement timeout is not for it.
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`set local statement_timeout = 0`);
    for (const { table_name: name } of tables) {
      const table = sql.identifier(String(name));
      const { rows } = await tx.execute(
        sql`select count(*)::int as n from ${table} where lower(${table}::text) ~ ${pattern}`,
      );
      const n = Number(rows[0]!.n);
      if (n > 0) found[String(name)] = n;
    }
  });
  return found;
}
