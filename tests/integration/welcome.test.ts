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
  async function row(email: string) {
    const { rows } = await app.db.execute(
      sql`select u.level, u.study_language, u.welcomed_at, s.new_per_day, s.daily_goal_minutes from users u left join learner_settings s on s.user_id = u.id where u.email = ${email}`,
    );
    return rows[0]!;
  }

  it("asks one question a screen and refuses bad answers with a 400 and the translated message", async () => {
    const ann = await fresh("welcome.ann@example.com");
    const home = await ann.page("/account/home");
    expect(home.response.status).toBe(200);
    const text = textOf(home.html);
    expect(text).toContain("Welcome");
    expect(text).toContain("Step 1 of 3");
    expect(text).toContain("Which language do you want to learn?");
    expect(text).not.toContain("My terms by stage");
    // The most chosen languages first (Spanish leading, English last of them), then every other; none is chosen.
    const codes = [...home.html.matchAll(/<input[^>]*name="studyLanguage"[^>]*>/g)].map(
      (m) => /value="([a-z]+)"/.exec(m[0])?.[1],
    );
    expect(codes.slice(0, 4)).toEqual(["es", "fr", "de", "it"]);
    expect(codes[20]).toBe("en");
    expect(codes.length).toBeGreaterThan(150);
    expect(home.html).not.toMatch(/name="studyLanguage"[^>]*checked/);
    // The search without JavaScript: a GET, bounded, matching a language's own name too.
    const found = await ann.page(`/account/home?step=language&q=${encodeURIComponent("日本")}`);
    expect(found.html).toContain('value="日本"');
    const longQuery = await ann.page(`/account/home?step=language&q=${"x".repeat(5000)}`);
    expect(longQuery.response.status).toBe(200);
    expect(textOf(longQuery.html)).toContain(`No language matches “${"x".repeat(60)}”.`);

    const cases: [Record<string, string>, string, string][] = [
      [{ intent: "language", studyLanguage: "xx" }, "/account/home", "Choose a language from the list."],
      [{ intent: "language" }, "/account/home", "Choose a language from the list."],
      [{ intent: "level", level: "guru" }, "/account/home?step=level", "Choose a level from the list."],
      [{ intent: "level", level: "guru" }, "/de/account/home?step=level", "Wähle ein Niveau aus der Liste."],
      [{ intent: "goal", goal: "ten" }, "/account/home?step=goal", "Choose a goal, or enter a whole number"],
      [{ intent: "goal", goal: "own", goalOwn: "121" }, "/account/home?step=goal", "Choose a goal, or enter"],
      [{ intent: "goal", goal: "own", goalOwn: "0" }, "/account/home?step=goal", "Choose a goal, or enter"],
      [{ intent: "goal", goal: "own", goalOwn: "9".repeat(5000) }, "/account/home?step=goal", "Choose a goal"],
      [{ intent: "language", studyLanguage: "xx" }, "/uk/account/home", "Вибери мову зі списку."],
      [{ intent: "other" }, "/account/home", "That action is not available here."],
    ];
    for (const [fields, path, message] of cases) {
      const response = await answer(ann, fields, path);
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      const html = await response.text();
      expect(textOf(html)).toContain(message);
      expect(html.match(/aria-describedby="(welcome|goal)-error"/), message).not.toBeNull();
    }
    // Nothing was saved; the welcome is still there.
    expect(await row("welcome.ann@example.com")).toMatchObject({ level: null, welcomed_at: null });
    expect(textOf((await ann.page("/account/home")).html)).toContain("Which language do you want to learn?");
  });

  it("saves each answer, then opens the text of the learner's level in the reader with the starter list", async () => {
    const ben = await fresh("welcome.ben@example.com");
    // The page is kept in memory for the learner: answering must draw it again.
    await ben.page("/de/account/home");
    expect(textOf((await ben.page("/de/account/home")).html)).toContain("Welche Sprache möchtest du lernen?");
    const language = await answer(ben, { intent: "language", studyLanguage: "es" }, "/de/account/home");
    expect(language.status).toBe(302);
    expect(language.headers.get("Location")).toBe("/de/account/home?step=level");
    expect(ben.jar.get("studyLanguage")).toBeTruthy();
    expect(textOf((await ben.page("/de/account/home?step=level")).html)).toContain("Wie gut kannst du schon Spanisch?");
    const level = await answer(ben, { intent: "level", level: "intermediate" }, "/de/account/home?step=level");
    expect(level.headers.get("Location")).toBe("/de/account/home?step=goal");
    const goal = await answer(ben, { intent: "goal", goal: "own", goalOwn: "25" }, "/de/account/home?step=goal");
    expect(goal.status).toBe(302);
    expect(await row("welcome.ben@example.com")).toMatchObject({
      level: "intermediate",
      study_language: "es",
      daily_goal_minutes: 25,
    });
    expect((await row("welcome.ben@example.com")).welcomed_at).not.toBeNull();
    // The Spanish text at Intermediate, else at the nearest level with one, in the reader.
    const reader = goal.headers.get("Location")!;
    expect(reader).toMatch(/^\/de\/account\/texts\/[0-9a-f-]{36}$/);
    const lesson = await ben.page(reader);
    expect(toastsIn(lesson.html)[0]?.[0]).toBe("Deine erste Lektion");
    expect(textOf(lesson.html)).toContain("Wörter für den Anfang:");
    expect(lesson.html).toContain("/de/account/explore/public?language=es&amp;level=intermediate");
    // My home: continue that text, with the starter list; the goal of 25 minutes.
    const home = await ben.page("/de/account/home");
    expect(home.html).toContain('data-next="read"');
    expect(home.html).toContain('data-starter-list="es-intermediate"');
    expect(textOf(home.html)).toContain("Heute 0 von 25 Minuten wiederholt");
    // Answering the last step again (a second tab) makes no second copy of the text.
    const again = await answer(ben, { intent: "goal", goal: "10" }, "/de/account/home?step=goal");
    expect(again.status).toBe(302);
    const { rows } = await app.db.execute(
      sql`select count(*)::int as n from texts t join users u on u.id = t.user_id where u.email = 'welcome.ben@example.com'`,
    );
    expect(rows[0]).toMatchObject({ n: 1 });
  });

  it("leads to the starter list, else the public lists, in a language without a text", async () => {
    const eve = await fresh("welcome.eve@example.com");
    await answer(eve, { intent: "language", studyLanguage: "sw" });
    await answer(eve, { intent: "level", level: "beginner" }, "/account/home?step=level");
    const goal = await answer(eve, { intent: "goal", goal: "5" }, "/account/home?step=goal");
    expect(goal.status).toBe(302);
    expect(goal.headers.get("Location")).toBe("/account/explore/public");
    const lists = await eve.page("/account/explore/public");
    expect(lists.response.status).toBe(200);
    expect(toastsIn(lists.html)[0]?.[0]).toBe("Public lists");
    // My home: no empty form, a next step all the same.
    const home = await eve.page("/account/home");
    expect(home.html).toContain('data-next="add"');
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
    // No level chosen: the first lesson at Beginner (the nearest level with an English text), the starter list beside.
    expect(textOf(home.html)).toContain("Your next step");
    expect(home.html).toContain('data-next="lesson"');
    expect(home.html).toContain('data-starter-list="en-beginner"');

    // A text opened in the reader: continue reading it.
    const body = new FormData();
    body.append("title", "A short story");
    body.append("body", "The cat sat on the mat. The dog slept.");
    const added = await cleo.request("/account/texts/new", { method: "POST", body, headers: { Origin: APP_URL } });
    expect(added.status).toBe(302);
    const textPath = added.headers.get("Location")!;
    home = await cleo.page("/account/home");
    expect(home.html).toContain('data-next="lesson"');
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
    // One primary button: nothing below repeats "Start review".
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
