/**
 * The reader's panel after `npm run dict:install`: an inflected word ("trinke", "schläft") offers the meanings of its
 * dictionary form, named as such, and the family link proposes that form as the parent (ADR 061, 100); a word with
 * its own entry ("Kaffee") shows it plainly; a Ukrainian form reaches its dictionary form through Wiktionary's "form of"
 * data (ADR 130). On the embedded database, with a small FreeDict-format dictionary, a cut of the vendored dictionaries
 * (tests/fixtures/dictionaries/vendored) and Debian's hunspell-de-de. Needs `npm run build`.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, signedInBrowser, startApp } from "../support/app";
import { startMailSink } from "../support/mail-sink";
import { PROJECT_ROOT } from "../support/server-process";
import { tempDir } from "../support/temp";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const base64 = (n: number): string => (n < 64 ? DIGITS[n]! : base64(Math.floor(n / 64)) + DIGITS[n % 64]);

function writeDictd(dir: string, pair: string, entries: Record<string, string>) {
  let data = Buffer.alloc(0);
  const index: string[] = [];
  for (const [key, text] of Object.entries(entries)) {
    const bytes = Buffer.from(`${text}\n`, "utf8");
    index.push(`${key}\t${base64(data.length)}\t${base64(bytes.length)}`);
    data = Buffer.concat([data, bytes]);
  }
  writeFileSync(path.join(dir, `freedict-${pair}.index`), `${index.join("\n")}\n`);
  writeFileSync(path.join(dir, `freedict-${pair}.dict.dz`), gzipSync(data));
}

const hrefOf = (html: string, word: string) =>
  html.match(new RegExp(`<a id="w-(\\d+)" href="[^"]*" class="word [^"]*"[^>]*>${word}</a>`))?.[1];
const plain = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

describe("the panel with the installed dictionaries", { timeout: 600_000 }, () => {
  const work = tempDir("dictionary-panel");
  const dataDir = path.join(work, "data");
  let app: App;
  let mail: Awaited<ReturnType<typeof startMailSink>>;
  let learner: Browser;

  beforeAll(async () => {
    const dictd = path.join(work, "dictd");
    mkdirSync(dictd, { recursive: true });
    writeDictd(dictd, "deu-eng", {
      schlafen: "schlafen /ʃlˈɑːfən/ <v>\nsleep <v>",
      geschlafen: "geschlafen /ɡəʃlˈɑːfən/\nslept\n see: {schlafen}, {er/sie schläft}, {ich/er/sie schlief}",
      trinken: "trinken /tɾˈɪŋkən/ <v, intr, trans>\ndrink <v>",
      kaffee: "Kaffee /kˈafeː/ <masc, n, sg>\n [cook.] coffee <n>",
    });
    // German's Hunspell dictionary alone: the Ukrainian form comes from Wiktionary's data.
    const hunspell = path.join(work, "hunspell");
    mkdirSync(hunspell, { recursive: true });
    for (const suffix of [".aff", ".dic"])
      copyFileSync(`/usr/share/hunspell/de_DE${suffix}`, path.join(hunspell, `de_DE${suffix}`));
    const install = spawnSync(
      process.execPath,
      [
        "scripts/dict-install.ts",
        ...["--only", "deu-eng", "--dictd-dir", dictd, "--hunspell-dir", hunspell],
        ...["--vendored-dir", path.join(PROJECT_ROOT, "tests/fixtures/dictionaries/vendored")],
      ],
      { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir }, encoding: "utf8" },
    );
    expect(install.stdout + install.stderr).toContain("6 dictionaries loaded");
    mail = await startMailSink();
    app = await startApp({ DATA_DIR: dataDir, SMTP_URL: mail.url });
    learner = await signedInBrowser(app, mail, "dictionary.panel@example.com");
    await learner.request("/preferences", {
      method: "POST",
      form: { intent: "studyLanguage", studyLanguage: "de", redirectTo: "/account/home" },
    });
    // The install and the server's start take more than the default minute on a busy machine.
  }, 300_000);
  afterAll(async () => {
    await app?.stop();
    await mail?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Adds a text and returns the reader's panel of a word of it, as rendered. */
  async function panels(title: string, text: string) {
    const body = new FormData();
    body.append("title", title);
    body.append("body", text);
    const added = await learner.request("/account/texts/new", { method: "POST", body, headers: { Origin: APP_URL } });
    expect(added.status).toBe(302);
    const id = added.headers.get("Location")!.split("/").at(-1)!;
    const reader = (await learner.page(`/account/texts/${id}`)).html;
    // The panel's meanings as rendered (the page also carries the translations, "dictionary form:" among them).
    return async (word: string) => {
      const { html } = await learner.page(`/account/texts/${id}?page=1&word=${hrefOf(reader, word)!}`);
      return plain(html.slice(html.indexOf('class="word-panel'), html.indexOf("<script")));
    };
  }

  it("names the dictionary form of an inflected word and offers its meanings", async () => {
    const panelOf = await panels("Am Morgen", "Ich trinke Kaffee. Die Katze schläft.");

    const trinke = await panelOf("trinke");
    expect(trinke).toContain("dictionary form: trinken · Verb");
    expect(trinke).toMatch(/\bdrink\b/);
    expect(trinke).toContain("Form of “trinken”");
    const schlaeft = await panelOf("schläft");
    expect(schlaeft).toContain("dictionary form: schlafen · Verb");
    expect(schlaeft).toMatch(/\bsleep\b/);
    const kaffee = await panelOf("Kaffee");
    expect(kaffee).toContain("Kaffee · Noun");
    expect(kaffee).not.toContain("dictionary form:");
    expect(kaffee).toMatch(/\bcoffee\b/);
  });

  it("names the dictionary form Wiktionary gives a Ukrainian form", async () => {
    await learner.request("/preferences", {
      method: "POST",
      form: { intent: "studyLanguage", studyLanguage: "uk", redirectTo: "/account/home" },
    });
    const panelOf = await panels("У лікарні", "Ми чекали лікарів.");
    const form = await panelOf("лікарів");
    expect(form).toContain("dictionary form: лікар · Noun");
    expect(form).toMatch(/\bdoctor\b/);
  });
});
