import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/config/env.server.ts";
import { tempDir } from "#tests/support/temp.ts";

const LONG_KEY = "a-production-key-of-at-least-32-characters";
const production = {
  APP_STAGE: "production",
  SESSION_SECRET: LONG_KEY,
  SMTP_URL: "smtp://mail.example:587",
  LEGAL_NAME: "Polyglot Learning Ltd",
  CONTACT_EMAIL: "privacy@polyglot.example",
};

describe("TRUST_PROXY: whom X-Forwarded-For is believed from", () => {
  it.each([
    [undefined, false],
    ["false", false],
    ["1", 1],
    ["2", 2],
    ["loopback", ["loopback"]],
    ["10.0.0.0/8, 192.168.1.7,uniquelocal", ["10.0.0.0/8", "192.168.1.7", "uniquelocal"]],
    ["::1,fd00::/8", ["::1", "fd00::/8"]],
  ])("accepts %s", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("refuses true, which would trust every hop, and says what to use instead", () => {
    expect(() => parseEnv({ TRUST_PROXY: "true" })).toThrow(
      /TRUST_PROXY: true would trust every hop; use the number of proxies/,
    );
  });

  it.each(["yes", "10.0.0.0/33", "proxy.example", "1.2.3"])("refuses %s, naming the variable", (value) => {
    expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe("SESSION_SECRET and SMTP_URL in production", () => {
  it("starts with long keys and an SMTP server", () => {
    expect(parseEnv({ ...production, SESSION_SECRET: `${LONG_KEY}1,${LONG_KEY}2` }).sessionSecrets).toEqual([
      `${LONG_KEY}1`,
      `${LONG_KEY}2`,
    ]);
  });

  it("refuses a key shorter than 32 characters, the retired ones included", () => {
    expect(() => parseEnv({ ...production, SESSION_SECRET: `${LONG_KEY},short` })).toThrow(
      /SESSION_SECRET: every key must be at least 32 characters/,
    );
  });

  it.each([",", " , ", ""])("refuses %j: it holds no key, so cookies would go unsigned", (value) => {
    const source = value === "" ? { ...production, SESSION_SECRET: value } : { SESSION_SECRET: value };
    expect(() => parseEnv(source)).toThrow(/SESSION_SECRET/);
  });

  it("refuses the local sign-in provider without SMTP_URL instead of writing links to the log", () => {
    expect(() => parseEnv({ ...production, SMTP_URL: undefined })).toThrow(
      /SMTP_URL: is required when APP_STAGE=production/,
    );
  });

  it("needs no SMTP_URL when Supabase sends the mail, nor outside production", () => {
    expect(
      parseEnv({ ...production, SMTP_URL: undefined, SUPABASE_URL: "https://x.supabase.co", SUPABASE_ANON_KEY: "k" })
        .authProvider,
    ).toBe("supabase");
    expect(parseEnv({ SESSION_SECRET: "short" }).sessionSecrets).toEqual(["short"]);
  });
});

describe("DATA_TEMPLATE_DIR", () => {
  it("is optional", () => {
    expect(parseEnv({}).DATA_TEMPLATE_DIR).toBeUndefined();
    expect(parseEnv({ DATA_TEMPLATE_DIR: "" }).DATA_TEMPLATE_DIR).toBeUndefined();
  });

  it("refuses a directory without an embedded database, naming the variable", () => {
    const dir = tempDir("no-template");
    try {
      expect(() => parseEnv({ DATA_TEMPLATE_DIR: dir })).toThrow(/DATA_TEMPLATE_DIR: holds no embedded database/);
      expect(() => parseEnv({ DATA_TEMPLATE_DIR: path.join(dir, "missing") })).toThrow(/DATA_TEMPLATE_DIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("accepts a data directory holding one", () => {
    const dir = tempDir("template-shape");
    try {
      mkdirSync(path.join(dir, "pglite"));
      writeFileSync(path.join(dir, "pglite", "PG_VERSION"), "17\n");
      expect(parseEnv({ DATA_TEMPLATE_DIR: dir }).DATA_TEMPLATE_DIR).toBe(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("LEGAL_NAME and CONTACT_EMAIL: the operator the legal pages name", () => {
  it("names the configured operator", () => {
    expect(parseEnv(production).legalOperator).toEqual({
      name: "Polyglot Learning Ltd",
      email: "privacy@polyglot.example",
    });
  });

  it("has a placeholder outside production", () => {
    expect(parseEnv({}).legalOperator.email).toMatch(/@/);
  });

  it.each(["LEGAL_NAME", "CONTACT_EMAIL"])("refuses to start in production without %s, naming it", (name) => {
    expect(() => parseEnv({ ...production, [name]: undefined })).toThrow(
      new RegExp(`${name}: is required when APP_STAGE=production`),
    );
  });

  it("refuses a contact address that is not an e-mail address", () => {
    expect(() => parseEnv({ CONTACT_EMAIL: "not an address" })).toThrow(/CONTACT_EMAIL/);
  });
});

describe("AZURE_SPEECH_*: the server's voices (ADR 140)", () => {
  const voices = "de=de-DE-KatjaNeural, en=en-US-JennyNeural";

  it("is off without any of them", () => {
    expect(parseEnv({}).speech).toBeNull();
  });

  it("reads the key, the region and the voices", () => {
    expect(
      parseEnv({ AZURE_SPEECH_KEY: "k", AZURE_SPEECH_REGION: "westeurope", AZURE_SPEECH_VOICES: voices }).speech,
    ).toEqual({
      url: "https://westeurope.tts.speech.microsoft.com/cognitiveservices/v1",
      key: "k",
      voices: { de: "de-DE-KatjaNeural", en: "en-US-JennyNeural" },
    });
  });

  it("refuses one without the others, naming what is missing", () => {
    expect(() => parseEnv({ AZURE_SPEECH_KEY: "k" })).toThrow(
      /AZURE_SPEECH_REGION: is required[\s\S]*AZURE_SPEECH_VOICES/,
    );
    expect(() => parseEnv({ AZURE_SPEECH_VOICES: voices, AZURE_SPEECH_REGION: "westeurope" })).toThrow(
      /AZURE_SPEECH_KEY: is required/,
    );
  });

  it("refuses in production the key .env.example prints", () => {
    expect(() =>
      parseEnv({
        ...production,
        AZURE_SPEECH_KEY: "replace-with-your-speech-key",
        AZURE_SPEECH_REGION: "westeurope",
        AZURE_SPEECH_VOICES: voices,
      }),
    ).toThrow(/AZURE_SPEECH_KEY: looks like a placeholder/);
  });

  it.each(["de", "de=Katja", "german=de-DE-KatjaNeural", "de=de-DE-KatjaNeural=x"])(
    "refuses the voices %j, saying the form they take",
    (value) => {
      expect(() =>
        parseEnv({ AZURE_SPEECH_KEY: "k", AZURE_SPEECH_REGION: "westeurope", AZURE_SPEECH_VOICES: value }),
      ).toThrow(/AZURE_SPEECH_VOICES: expects language=voice pairs/);
    },
  );
});
