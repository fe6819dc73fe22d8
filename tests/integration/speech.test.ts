/**
 * The server's text-to-speech provider (issue 59, ADR 140) against a protocol-level fake of Azure's REST API: audio
 * cached per text and voice in the database (shared by every instance, bounded), served with a long cache to the
 * signed-in learner, refused plainly otherwise.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInBrowser, startApp } from "../support/app";
import { FAKE_SPEECH_KEY, fakeAudio, startFakeAzureSpeech } from "../support/fake-azure-speech";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const VOICES = { de: "de-DE-KatjaNeural", en: "en-US-JennyNeural" };
const speechPath = (lang: string, voice: string, text: string) =>
  `/account/speech?${new URLSearchParams({ lang, voice, text })}`;

describe("the server's voices", () => {
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let fake: Awaited<ReturnType<typeof startFakeAzureSpeech>>;
  let browser: Browser;
  const rows = async () => Number((await app.db.execute(sql`select count(*)::int as n from speech_audio`)).rows[0]!.n);

  beforeAll(async () => {
    mail = await startMailSink();
    fake = await startFakeAzureSpeech();
    app = await startApp({
      SMTP_URL: mail.url,
      AZURE_SPEECH_KEY: FAKE_SPEECH_KEY,
      AZURE_SPEECH_URL: fake.url,
      AZURE_SPEECH_VOICES: Object.entries(VOICES)
        .map(([language, voice]) => `${language}=${voice}`)
        .join(","),
    });
    browser = await signedInBrowser(app, mail, `speech-${Date.now()}@example.com`);
  }, 120_000);

  afterAll(async () => {
    await app?.stop();
    await mail?.close();
    await fake?.close();
  });

  it("asks the provider once per text and voice, then answers from the database with a year's cache", async () => {
    const path = speechPath("de", VOICES.de, "Der Hund schläft.");
    const first = await browser.request(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(first.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable, no-transform");
    expect(Buffer.from(await first.arrayBuffer())).toEqual(fakeAudio(VOICES.de, "Der Hund schläft."));
    expect(fake.requests).toEqual([
      {
        key: FAKE_SPEECH_KEY,
        format: "audio-24khz-48kbitrate-mono-mp3",
        voice: VOICES.de,
        text: "Der Hund schläft.",
      },
    ]);

    const again = await browser.request(path);
    expect(Buffer.from(await again.arrayBuffer())).toEqual(fakeAudio(VOICES.de, "Der Hund schläft."));
    expect(fake.requests).toHaveLength(1);
    expect(await rows()).toBe(1);

    // The same text in another voice is another entry.
    const english = await browser.request(speechPath("en", VOICES.en, "Der Hund schläft."));
    expect(Buffer.from(await english.arrayBuffer())).toEqual(fakeAudio(VOICES.en, "Der Hund schläft."));
    expect(fake.requests).toHaveLength(2);
  });

  it("gives the player the server's voices for the languages it reads, and no other", async () => {
    const study = async (language: string) => {
      const chosen = await browser.request("/preferences", {
        method: "POST",
        form: { intent: "studyLanguage", studyLanguage: language, redirectTo: "/account/player" },
      });
      expect(chosen.status).toBe(302);
      const { response, html } = await browser.page("/account/player");
      expect(response.status).toBe(200);
      return html;
    };
    // German studied, English interface: both voices; French studied (no server voice): English only.
    const german = await study("de");
    expect(german).toContain(VOICES.de);
    expect(german).toContain(VOICES.en);
    const french = await study("fr");
    expect(french).not.toContain(VOICES.de);
    expect(french).toContain(VOICES.en);
  });

  it("sends markup characters as text, not as SSML", async () => {
    const text = `Tom & <Jerry> "sagen" 'hallo'`;
    const answer = await browser.request(speechPath("de", VOICES.de, text));
    expect(answer.status).toBe(200);
    expect(fake.requests.at(-1)!.text).toBe(text);
  });

  it("refuses plainly a language without a server voice, another voice, a long text, a signed-out visitor", async () => {
    const before = fake.requests.length;
    const french = await browser.request(speechPath("fr", "fr-FR-DeniseNeural", "Bonjour"));
    expect(french.status).toBe(404);
    expect(await french.text()).toBe("No server voice reads this language.");
    expect((await browser.request(speechPath("de", "de-DE-ConradNeural", "Hallo"))).status).toBe(404);
    const long = await browser.request(speechPath("de", VOICES.de, "a".repeat(401)));
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("at most 400 characters");
    const stranger = await app.browser().request(speechPath("de", VOICES.de, "Hallo"));
    expect(stranger.status).toBe(302);
    expect(fake.requests.length).toBe(before);
  });

  it("answers 502 and keeps nothing when the provider fails", async () => {
    const before = await rows();
    fake.failWith(500);
    const failed = await browser.request(speechPath("de", VOICES.de, "Der Vogel singt."));
    fake.failWith(200);
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain("device’s voice reads instead");
    expect(await rows()).toBe(before);
  });

  it("keeps at most 10,000 entries, the least recently used going first", async () => {
    await app.db.execute(sql`
      insert into speech_audio (hash, voice, size, data, used_at)
      select 'old-' || n, ${VOICES.de}, 3, '\\x494433'::bytea, now() - interval '30 days' + n * interval '1 second'
      from generate_series(1, 10000) as n`);
    const answer = await browser.request(speechPath("de", VOICES.de, "Neu."));
    expect(answer.status).toBe(200);
    expect(await rows()).toBe(10_000);
    const { rows: oldest } = await app.db.execute(
      sql`select count(*)::int as n from speech_audio where hash in ('old-1', 'old-2', 'old-3', 'old-4')`,
    );
    expect(Number(oldest[0]!.n)).toBe(0);
  });
});
