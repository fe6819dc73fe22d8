/**
 * No known secrets in production: the server refuses to start with a secret printed anywhere in the repository's
 * documentation (.env.example, README, compose.yaml, docs) or an obviously weak one, naming the variable and how to
 * make a good value; the example database password in DATABASE_URL is refused the same way. Outside production the
 * examples still start a development server (tests/unit/env-example.test.ts).
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/config/env.server.ts";
import { PROJECT_ROOT as ROOT } from "#tests/support/paths.ts";

const production = {
  APP_STAGE: "production",
  SESSION_SECRET: randomBytes(48).toString("base64"),
  SMTP_URL: "smtp://mail.polyglot.test:587",
  LEGAL_NAME: "Polyglot Learning Ltd",
  CONTACT_EMAIL: "privacy@polyglot.test",
};
const stripe = (secretKey: string, webhookSecret: string) => ({
  STRIPE_SECRET_KEY: secretKey,
  STRIPE_WEBHOOK_SECRET: webhookSecret,
  STRIPE_PRICE_SUPPORTER_MONTHLY: "price_monthly",
  STRIPE_PRICE_SUPPORTER_YEARLY: "price_yearly",
  SUPPORTER_MONTHLY_AMOUNT: "400",
  SUPPORTER_YEARLY_AMOUNT: "4000",
});
const randomStripeKey = (prefix: string) => prefix + randomBytes(40).toString("base64url").replace(/[-_]/g, "x");
const HOW_TO_GENERATE = /openssl rand -base64 48/;

/** The problem parseEnv reports, or null when it accepts the configuration. */
function refusal(source: Record<string, string | undefined>): string | null {
  try {
    parseEnv(source);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Every documentation file of the repository: .env.example, README, compose.yaml and docs/**. */
function publishedFiles(): string[] {
  const docs = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? docs(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
  return [
    ".env.example",
    "README.md",
    "compose.yaml",
    ...docs(path.join(ROOT, "docs")).map((f) => path.relative(ROOT, f)),
  ];
}

/** Each value the documentation assigns to a secret (NAME=value, NAME: value), with where it was found. */
function publishedSecrets() {
  const NAMES =
    "SESSION_SECRET|STRIPE_SECRET_KEY|STRIPE_WEBHOOK_SECRET|SUPABASE_ANON_KEY|POSTGRES_PASSWORD|DATABASE_URL|SMTP_URL|METRICS_TOKEN";
  const assignment = new RegExp(`\\b(${NAMES})(?:=|:\\s+)([^\\s\`'"|,]+)`, "g");
  const found: { name: string; value: string; file: string }[] = [];
  for (const file of publishedFiles()) {
    for (const [, name, value] of readFileSync(path.join(ROOT, file), "utf8").matchAll(assignment)) {
      // Interpolations, shell substitutions and references to other variables are not values.
      if (value!.includes("${") || value!.startsWith("$") || /^[A-Z_]+$/.test(value!)) continue;
      found.push({ name: name!, value: value!, file });
    }
  }
  return found;
}

describe("secrets published in the repository", () => {
  const published = publishedSecrets();

  it("are found in .env.example (so the check below is not empty)", () => {
    const names = new Set(published.filter((p) => p.file === ".env.example").map((p) => p.name));
    expect([...names].sort()).toEqual(
      expect.arrayContaining([
        "METRICS_TOKEN",
        "POSTGRES_PASSWORD",
        "SESSION_SECRET",
        "SMTP_URL",
        "STRIPE_SECRET_KEY",
        "STRIPE_WEBHOOK_SECRET",
      ]),
    );
  });

  it("each stop a production start, naming the variable and never printing the value", () => {
    for (const { name, value, file } of published) {
      let source: Record<string, string>;
      let variable = name;
      if (name === "POSTGRES_PASSWORD") {
        // compose.yaml builds DATABASE_URL from it.
        source = { ...production, DATABASE_URL: `postgres://polyglot:${encodeURIComponent(value)}@db:5432/polyglot` };
        variable = "DATABASE_URL";
      } else if (name === "DATABASE_URL" && !/:[^/@]+@/.test(value.replace(/^\w+:\/\//, ""))) {
        continue;
      } else if (name === "STRIPE_SECRET_KEY") {
        source = { ...production, ...stripe(value, randomStripeKey("whsec_")) };
      } else if (name === "STRIPE_WEBHOOK_SECRET") {
        source = { ...production, ...stripe(randomStripeKey("sk_live_"), value) };
      } else if (name === "SUPABASE_ANON_KEY") {
        source = { ...production, SUPABASE_URL: "https://project.supabase.co", SUPABASE_ANON_KEY: value };
      } else {
        source = { ...production, [name]: value };
      }
      const problem = refusal(source) ?? `accepted: ${name}=${value} from ${file}`;
      expect(problem, `${name}=${value} from ${file} is accepted`).toMatch(new RegExp(`${variable}: `));
      if (value.length >= 8) expect(problem!.includes(value), `the message prints ${value}`).toBe(false);
    }
  });

  it("say how to generate a key", () => {
    const fromExample = published.find((p) => p.file === ".env.example" && p.name === "SESSION_SECRET")!;
    expect(refusal({ ...production, SESSION_SECRET: fromExample.value })).toMatch(HOW_TO_GENERATE);
  });

  it("as they were printed before are refused too: copies of older examples live on in .env files", () => {
    for (const value of [
      "replace-with-64-hex-characters-from-openssl-rand-hex-32-000000000",
      "integration-test-session-secret-0123456789abcdef",
    ]) {
      expect(refusal({ ...production, SESSION_SECRET: value })).toMatch(/SESSION_SECRET: the key /);
    }
    expect(refusal({ ...production, DATABASE_URL: "postgres://polyglot:password@db:5432/polyglot" })).toMatch(
      /DATABASE_URL: its password/,
    );
    expect(
      refusal({ ...production, DATABASE_URL: "postgres://polyglot:replace-with-a-long-random-password@db/polyglot" }),
    ).toMatch(/DATABASE_URL: its password/);
  });
});

describe("weak secrets in production", () => {
  it.each([
    ["one repeated character", "a".repeat(48)],
    ["two characters", "ab".repeat(24)],
    ["few different characters", "0123456".repeat(6)],
    ["a placeholder word", "change-me-change-me-change-me-change-me"],
    ["the word secret", "my-super-secret-session-key-0123456789"],
    ["the word example", "EXAMPLE-KEY-0123456789-ABCDEFGHIJKLMNOP"],
  ])("refuses a session key with %s, naming the variable and how to generate one", (_what, key) => {
    const problem = refusal({ ...production, SESSION_SECRET: key });
    expect(problem).toMatch(/SESSION_SECRET: the key /);
    expect(problem).toMatch(HOW_TO_GENERATE);
    expect(problem!.includes(key)).toBe(false);
  });

  it("names which key of a rotation list is weak", () => {
    const good = randomBytes(48).toString("base64");
    expect(refusal({ ...production, SESSION_SECRET: `${good},${"x".repeat(40)}` })).toMatch(
      /SESSION_SECRET: key 2 of the list is too easy to guess/,
    );
  });

  it("refuses weak or placeholder Stripe secrets", () => {
    expect(
      refusal({ ...production, ...stripe(randomStripeKey("sk_live_"), "whsec_aaaaaaaaaaaaaaaaaaaaaaaa") }),
    ).toMatch(/STRIPE_WEBHOOK_SECRET: is too easy to guess/);
    expect(refusal({ ...production, ...stripe("sk_live_change-me", randomStripeKey("whsec_")) })).toMatch(
      /STRIPE_SECRET_KEY: looks like a placeholder/,
    );
  });

  it("refuses a placeholder password in SMTP_URL", () => {
    expect(refusal({ ...production, SMTP_URL: "smtp://user:password@mail.polyglot.test:587" })).toMatch(
      /SMTP_URL: its password/,
    );
  });

  it("accepts generated keys and passwords (two hundred of each, no false refusal)", () => {
    for (let i = 0; i < 200; i++) {
      const source = {
        ...production,
        SESSION_SECRET: `${randomBytes(48).toString("base64")},${randomBytes(32).toString("hex")}`,
        DATABASE_URL: `postgres://polyglot:${randomBytes(32).toString("hex")}@db:5432/polyglot`,
        ...stripe(randomStripeKey("sk_live_"), randomStripeKey("whsec_")),
      };
      expect(refusal(source)).toBeNull();
    }
  });

  it("lets development and test runs use the examples", () => {
    for (const stage of ["development", "test", "staging"]) {
      expect(
        refusal({
          APP_STAGE: stage,
          SESSION_SECRET: "change-me-with-openssl-rand-base64-48",
          DATABASE_URL: "postgres://polyglot:change-me@db:5432/polyglot",
        }),
      ).toBeNull();
    }
  });
});
