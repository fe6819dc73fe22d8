import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

/**
 * My home's welcome on PGlite: shown until answered or skipped, its answers checked on the server (a 400 with the
 * translated message, never a 500), saved where the rest of the app reads them, and My home's next step afterwards.
 */
describe("the welcome on My home", () => {
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;

  beforeAll(async () => {
    mail = await startMailSink();
    app = await startApp({ SMTP_URL: mail.url });
  });
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
  });

  const fresh = (email: string) => signedInBrowser(app, mail, email, undefined, { welcome: "keep" });
  const answer = (browser: Browser, fields: Record<string, string>, path = "/account/home") =>
    browser.request(path, { method: "POST", form: fields });
  const good = { intent: "welcome", studyLanguage: "de", level: "elementary", newPerDay: "15" };
  async function row(email: string) {
    const { rows } = await app.db.execute(
      sql`select u.level, u.study_language, u.welcomed_at, s.new_per_day from users u left join learner_settings s on s.user_id = u.id where u.email = ${email}`,
    );
    return rows[0]!;
  }

  it("shows the welcome instead of the dashboard until it is answered, and refuses bad answers with a 400", async () => {
    const ann = await fresh("welcome.ann@example.com");
    const home = await ann.page("/account/home");
    expect(home.response.status).toBe(200);
    const text = textOf(home.html);
    expect(text).toContain("Welcome");
    expect(text).toContain("Which language do you want to learn?");
    expect(text).not.toContain("My terms by stage");
    // The most studied languages come first, then every other study language; none is chosen for the learner.
    const options = [...home.html.matchAll(/<option value="([a-z]*)"/g)].map((m) => m[1]);
    expect(options.slice(0, 4)).toEqual(["", "en", "es", "fr"]);
    expect(options.length).toBeGreaterThan(150);
    expect(home.html).toMatch(/<option value="" disabled="" selected="">Choose a language<\/option>/);
    // The daily limit's default, the settings' range.
    expect(home.html).toMatch(/name="newPerDay"[^>]*max="1000"|max="1000"[^>]*name="newPerDay"/);
    expect(home.html).toMatch(/value="20"/);

    const cases: [Record<string, string>, string, string][] = [
      [{ ...good, studyLanguage: "xx" }, "/account/home", "Choose a language from the list."],
      [{ ...good, studyLanguage: "" }, "/account/home", "Choose a language from the list."],
      [{ ...good, level: "guru" }, "/account/home", "Choose a level from the list."],
      [{ ...good, newPerDay: "1001" }, "/account/home", "Enter a whole number of new terms from 0 to 1,000."],
      [{ ...good, newPerDay: "-1" }, "/account/home", "Enter a whole number of new terms from 0 to 1,000."],
      [{ ...good, newPerDay: "ten" }, "/account/home", "Enter a whole number of new terms from 0 to 1,000."],
      [{ ...good, newPerDay: "9".repeat(5000) }, "/account/home", "Enter a whole number of new terms from 0 to 1,000."],
      [{ ...good, level: "guru" }, "/de/account/home", "Wähle ein Niveau aus der Liste."],
      [{ ...good, studyLanguage: "xx" }, "/uk/account/home", "Вибери мову зі списку."],
      [{ ...good, intent: "other" }, "/account/home", "That action is not available here."],
    ];
    for (const [fields, path, message] of cases) {
      const response = await answer(ann, fields, path);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      const html = await response.text();
      expect(textOf(html)).toContain(message);
      // The form comes back with what was sent, the message tied to its field.
      expect(html.match(/aria-describedby="welcome-\w+-error"/), message).not.toBeNull();
    }
    // Level and number missing altogether: both errors at once.
    const empty = await answer(ann, { intent: "welcome", studyLanguage: "es" });
    expect(empty.status).toBe(400);
    const emptyText = textOf(await empty.text());
    expect(emptyText).toContain("Choose a level from the list.");
    expect(emptyText).toContain("Enter a whole number of new terms from 0 to 1,000.");
    // Nothing was saved; the welcome is still there.
    expect(await row("welcome.ann@example.com")).toMatchObject({ level: null, welcomed_at: null });
    expect(textOf((await ann.page("/account/home")).html)).toContain("Which language do you want to learn?");
  });

  it("saves the answers and shows My home with the list at the learner's level as the next step", async () => {
    const ben = await fresh("welcome.ben@example.com");
    // The page is kept in memory for the learner: answering must draw it again.
    await ben.page("/de/account/home");
    expect(textOf((await ben.page("/de/account/home")).html)).toContain("Welche Sprache möchtest du lernen?");
    const saved = await answer(ben, good, "/de/account/home");
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe("/de/account/home");
    expect(ben.jar.get("studyLanguage")).toBeTruthy();
    expect(await row("welcome.ben@example.com")).toMatchObject({
      level: "elementary",
      study_language: "de",
      new_per_day: 15,
    });
    expect((await row("welcome.ben@example.com")).welcomed_at).not.toBeNull();
    const home = await ben.page("/de/account/home");
    expect(toastsIn(home.html)[0]).toEqual(["Alles bereit", "Deine Lernsprache: Deutsch."]);
    const text = textOf(home.html);
    expect(text).toContain("Dein nächster Schritt");
    expect(text).toContain("Deutsch, Grundkenntnisse");
    expect(home.html).toContain('href="/de/account/explore/public?language=de&amp;level=elementary"');
    expect(text).not.toContain("Welche Sprache möchtest du lernen?");
    // Settings show the new daily limit.
    expect((await ben.page("/account/settings")).html).toMatch(
      /name="newPerDay"[^>]*value="15"|value="15"[^>]*name="newPerDay"/,
    );
  });

  it("skipping keeps the defaults; the next step moves to reading, then to review", async () => {
    const cleo = await fresh("welcome.cleo@example.com");
    await cleo.page("/account/home");
    await cleo.page("/account/home");
    const skipped = await answer(cleo, { intent: "skip" });
    expect(skipped.status).toBe(302);
    expect(skipped.headers.get("Location")).toBe("/account/home");
    expect(await row("welcome.cleo@example.com")).toMatchObject({
      level: null,
      study_language: "en",
      new_per_day: null,
    });
    let home = await cleo.page("/account/home");
    // No level chosen: the Beginner list of the study language.
    expect(textOf(home.html)).toContain("Your next step");
    expect(textOf(home.html)).toContain("English, Beginner");
    expect(home.html).toContain('data-next="list"');

    // A text opened in the reader: continue reading it.
    const body = new FormData();
    body.append("title", "A short story");
    body.append("body", "The cat sat on the mat. The dog slept.");
    const added = await cleo.request("/account/texts/new", { method: "POST", body, headers: { Origin: APP_URL } });
    expect(added.status).toBe(302);
    const textPath = added.headers.get("Location")!;
    home = await cleo.page("/account/home");
    expect(home.html).toContain('data-next="list"');
    expect((await cleo.page(textPath)).response.status).toBe(200);
    home = await cleo.page("/account/home");
    expect(home.html).toContain('data-next="read"');
    expect(textOf(home.html)).toContain("Continue where you stopped reading: A short story");
    expect(home.html).toContain(`href="${textPath}"`);

    // A term due now comes first: review it.
    const term = await cleo.request("/account/terms/new", {
      method: "POST",
      form: { text: "mat", meaning: "Matte", partOfSpeech: "noun", notes: "", sentence: "", translation: "" },
    });
    expect(term.status).toBe(302);
    home = await cleo.page("/account/home");
    expect(home.html).toContain('data-next="review"');
    expect(textOf(home.html)).toContain("1 term is waiting for review.");
    // One primary button: the day panel below does not repeat "Start review".
    expect(textOf(home.html).match(/Start review/g)).toHaveLength(1);
    // Skipping again (a second tab, a replayed form) changes nothing.
    expect((await answer(cleo, { intent: "skip" })).status).toBe(302);
  });

  it("a sign-in with a return path lands on it, the welcome still waiting on My home", async () => {
    const dora = app.browser();
    const guarded = await dora.request("/account/explore/member?q=haus");
    expect(guarded.status).toBe(302);
    const started = Date.now();
    await dora.requestSignIn("welcome.dora@example.com");
    const message = await mail.waitFor("welcome.dora@example.com", started);
    const link = new URL(message.text.match(/https?:\/\/\S+\/confirm\?\S+/)![0]);
    const confirmed = await dora.request(link.pathname, {
      method: "POST",
      form: { token: link.searchParams.get("token")! },
    });
    expect(confirmed.headers.get("Location")).toBe("/account/explore/member?q=haus");
    expect((await dora.page("/account/explore/member?q=haus")).response.status).toBe(200);
    expect(textOf((await dora.page("/account/home")).html)).toContain("Which language do you want to learn?");
  });
});
