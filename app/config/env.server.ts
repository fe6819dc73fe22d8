import { isIP } from "node:net";
import { z } from "zod";
import { billingConfig, billingEnvShape, checkBillingEnv } from "../billing/billing-env";
import { checkSpeechEnv, speechConfig, speechEnvShape } from "../player/speech-env";
import { holdsDatabase } from "../db/template.server";
import { GENERATE_PASSWORD, GENERATE_SECRET, passwordOf, secretProblem } from "./known-secrets";
import { resolveSessionSecrets, type StartupNote } from "./session-secret.server";

/**
 * Whom Express trusts for X-Forwarded-*: `false`, a hop count, or proxy addresses and CIDR ranges (Express's names
 * `loopback`, `linklocal`, `uniquelocal` too). `true` would trust every hop, so a client could choose its own address.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, ctx): false | number | string[] => {
    if (value === "" || value === "false" || value === "0") return false;
    if (/^\d+$/.test(value)) return Number(value);
    if (value === "true") {
      ctx.addIssue({
        code: "custom",
        message:
          "true would trust every hop; use the number of proxies in front (e.g. 1) or their addresses (e.g. loopback, 10.0.0.0/8)",
      });
      return z.NEVER;
    }
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const named = new Set(["loopback", "linklocal", "uniquelocal"]);
    const bad = entries.filter((entry) => !named.has(entry) && !isIpOrRange(entry));
    if (bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: "custom",
        message: `expects false, a hop count or proxy addresses/CIDR ranges, not ${JSON.stringify(bad.join(",") || value)}`,
      });
      return z.NEVER;
    }
    return entries;
  });

function isIpOrRange(entry: string): boolean {
  const [address = "", bits, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/** Outside production the legal pages may name a placeholder operator. */
const DEVELOPMENT_OPERATOR = { name: "Polyglot (development installation)", email: "contact@polyglot.invalid" };

/** In production every signing key is long enough to resist guessing. */
const MIN_SECRET_LENGTH = 32;

const optionalUrl = z.preprocess((value) => (value === "" ? undefined : value), z.url().optional());
const optionalString = z.preprocess((value) => (value === "" ? undefined : value), z.string().optional());

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    APP_URL: optionalUrl,
    SESSION_SECRET: optionalString,
    DATA_DIR: z.string().min(1).default("./data"),
    DATA_TEMPLATE_DIR: optionalString.refine((dir) => dir === undefined || holdsDatabase(dir), {
      message: "holds no embedded database (pglite/PG_VERSION): make one with `node scripts/data-template.ts DIR`",
    }),
    DATABASE_URL: optionalUrl,
    /**
     * PostgreSQL itself when DATABASE_URL is a pooler in transaction mode: migrations, `LISTEN` and background
     * statements, which need a session, go here. Unset: DATABASE_URL is PostgreSQL itself (or a session-mode pooler).
     */
    DATABASE_DIRECT_URL: optionalUrl,
    /** Where the Japanese and Chinese analysers' dictionaries lie (`ipadic/`, `jieba/dict.txt`); none: their packages. */
    READINGS_DIR: optionalString,
    SMTP_URL: optionalUrl,
    MAIL_FROM: optionalString,
    AUTH_PROVIDER: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.enum(["local", "supabase"]).optional(),
    ),
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalString,
    APP_STAGE: z.enum(["development", "test", "staging", "production"]).default("development"),
    POSTHOG_KEY: optionalString,
    POSTHOG_HOST: optionalUrl,
    POSTHOG_PERSONAL_API_KEY: optionalString,
    POSTHOG_PROJECT_ID: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.string().regex(/^\d+$/, "is the project's number (PostHog: Settings → Project → Project ID)").optional(),
    ),
    POSTHOG_API_HOST: optionalUrl,
    WEB_ANALYTICS_SRC: optionalUrl,
    TRUST_PROXY: trustProxy.default(false),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    MAX_REQUESTS_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(64),
    METRICS_TOKEN: optionalString,
    ...billingEnvShape,
    ...speechEnvShape,
    LEGAL_NAME: z.preprocess(
      (value) => (value === "" ? undefined : value),
      z.string().trim().min(2).max(200).optional(),
    ),
    CONTACT_EMAIL: z.preprocess((value) => (value === "" ? undefined : value), z.email().optional()),
  })
  .superRefine((env, ctx) => {
    checkBillingEnv(env, (path, message) => ctx.addIssue({ code: "custom", path: [path], message }));
    checkSpeechEnv(env, (path, message) => ctx.addIssue({ code: "custom", path: [path], message }));
    if (env.APP_STAGE === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required when APP_STAGE=production" });
    }
    const keys = splitSecrets(env.SESSION_SECRET);
    if (env.SESSION_SECRET !== undefined && keys.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: "holds no key (a comma-separated list of keys)",
      });
    }
    if (env.APP_STAGE === "production" && keys.some((key) => key.length < MIN_SECRET_LENGTH)) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: `every key must be at least ${MIN_SECRET_LENGTH} characters when APP_STAGE=production`,
      });
    }
    if (env.APP_STAGE === "production")
      checkKnownSecrets(env, (path, message) => ctx.addIssue({ code: "custom", path: [path], message }));
    for (const name of ["LEGAL_NAME", "CONTACT_EMAIL"] as const) {
      if (env.APP_STAGE === "production" && !env[name]) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "is required when APP_STAGE=production (the privacy notice and terms of use name the operator)",
        });
      }
    }
    const provider = env.AUTH_PROVIDER ?? (env.SUPABASE_URL ? "supabase" : "local");
    if (env.APP_STAGE === "production" && provider === "local" && !env.SMTP_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_URL"],
        message:
          "is required when APP_STAGE=production with the local sign-in provider (links are never written to the log there)",
      });
    }
    if (Boolean(env.POSTHOG_PERSONAL_API_KEY) !== Boolean(env.POSTHOG_PROJECT_ID)) {
      ctx.addIssue({
        code: "custom",
        path: [env.POSTHOG_PERSONAL_API_KEY ? "POSTHOG_PROJECT_ID" : "POSTHOG_PERSONAL_API_KEY"],
        message: "POSTHOG_PERSONAL_API_KEY and POSTHOG_PROJECT_ID go together (deleting a learner's analytics data)",
      });
    }
    if (env.DATABASE_DIRECT_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_DIRECT_URL"],
        message: "goes with DATABASE_URL (the pooler the app's requests go through); set DATABASE_URL too",
      });
    }
    if (env.AUTH_PROVIDER === "supabase" && (!env.SUPABASE_URL || !env.SUPABASE_ANON_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_PROVIDER"],
        message: "supabase needs SUPABASE_URL and SUPABASE_ANON_KEY",
      });
    }
  });

/**
 * In production no secret may be one anybody can read in the repository, or one easy to guess: `cp .env.example .env`
 * must not start a server whose cookies anyone can sign or whose database anyone can open. Messages name the
 * variable and how to make a good value, never the value.
 */
function checkKnownSecrets(
  env: Partial<
    Record<
      | "SESSION_SECRET"
      | "STRIPE_SECRET_KEY"
      | "STRIPE_WEBHOOK_SECRET"
      | "SUPABASE_ANON_KEY"
      | "DATABASE_URL"
      | "DATABASE_DIRECT_URL"
      | "SMTP_URL"
      | "METRICS_TOKEN"
      | "AZURE_SPEECH_KEY",
      string
    >
  >,
  issue: (path: string, message: string) => void,
) {
  const keys = splitSecrets(env.SESSION_SECRET);
  keys.forEach((key, index) => {
    const problem = secretProblem(key, "signing");
    const which = keys.length > 1 ? `key ${index + 1} of the list` : "the key";
    if (problem) issue("SESSION_SECRET", `${which} ${problem}; ${GENERATE_SECRET}`);
  });
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"] as const) {
    const problem = env[name] ? secretProblem(env[name], "signing") : null;
    if (problem) issue(name, `${problem}; use the one your Stripe dashboard shows (Developers → API keys / Webhooks)`);
  }
  const speechKey = env.AZURE_SPEECH_KEY ? secretProblem(env.AZURE_SPEECH_KEY, "credential") : null;
  if (speechKey) issue("AZURE_SPEECH_KEY", `${speechKey}; use your Speech resource's key (Keys and Endpoint)`);
  const anonKey = env.SUPABASE_ANON_KEY ? secretProblem(env.SUPABASE_ANON_KEY, "credential") : null;
  if (anonKey) issue("SUPABASE_ANON_KEY", `${anonKey}; use your Supabase project's anon key`);
  for (const name of ["DATABASE_URL", "DATABASE_DIRECT_URL"] as const) {
    const databasePassword = passwordOf(env[name]);
    const database = databasePassword === null ? null : secretProblem(databasePassword, "credential");
    if (database) {
      issue(
        name,
        `its password ${database}: set the database's own password (with compose.yaml, POSTGRES_PASSWORD in .env before the database's first start); ${GENERATE_PASSWORD}`,
      );
    }
  }
  const metricsToken = env.METRICS_TOKEN;
  const metrics = metricsToken
    ? metricsToken.length < MIN_SECRET_LENGTH
      ? `must be at least ${MIN_SECRET_LENGTH} characters when APP_STAGE=production`
      : secretProblem(metricsToken, "signing")
    : null;
  if (metrics) issue("METRICS_TOKEN", `${metrics}; ${GENERATE_SECRET}`);
  const mailPassword = passwordOf(env.SMTP_URL);
  const mail = mailPassword === null ? null : secretProblem(mailPassword, "credential");
  if (mail) issue("SMTP_URL", `its password ${mail}: use your mail provider's credentials`);
}

function splitSecrets(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((key) => key.trim())
    .filter(Boolean);
}

export type Env = ReturnType<typeof parseEnv>;

/** Reads the configuration contract once; a bad value stops the process with the variable's name. */
export function parseEnv(source: Record<string, string | undefined>) {
  const result = schema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  const env = result.data;
  const appUrl = new URL(env.APP_URL ?? `http://localhost:${env.PORT}`);
  const session = resolveSessionSecrets(env);
  return {
    ...env,
    APP_URL: appUrl.origin,
    /** What the server says once at start about its configuration. */
    startupNotes: [session.note].filter((note): note is StartupNote => note !== null),
    secureCookies: appUrl.protocol === "https:",
    sessionSecrets: session.secrets,
    authProvider: env.AUTH_PROVIDER ?? (env.SUPABASE_URL ? "supabase" : "local"),
    analyticsEnabled: env.APP_STAGE === "production",
    /** Stripe, the plan prices and the campaign; null parts are closed. */
    billing: billingConfig(env),
    /** The server's text-to-speech provider (ADR 140); null: the browser's voices only. */
    speech: speechConfig(env),
    /** Who runs this installation and how to reach them, named on the legal pages. */
    legalOperator: {
      name: env.LEGAL_NAME ?? DEVELOPMENT_OPERATOR.name,
      email: env.CONTACT_EMAIL ?? DEVELOPMENT_OPERATOR.email,
    },
    /** Origins the browser may contact for analytics; only in production. */
    analyticsHosts:
      env.APP_STAGE === "production"
        ? [
            env.POSTHOG_KEY ? new URL(env.POSTHOG_HOST ?? "https://eu.i.posthog.com").origin : null,
            env.WEB_ANALYTICS_SRC ? new URL(env.WEB_ANALYTICS_SRC).origin : null,
          ].filter((origin): origin is string => origin !== null)
        : [],
  } as const;
}

export const env = parseEnv(process.env);

/** Every variable the server reads (`.env.example` lists each; tests/unit/env-example.test.ts holds them together). */
export const ENV_VARIABLES = Object.keys(schema.shape);
