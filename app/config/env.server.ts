import { z } from "zod";
import { resolveSessionSecrets, type StartupNote } from "./session-secret.server";

/** `npm run build` renders pages with this placeholder origin (server.ts swaps in APP_URL): a build, not a server. */
const BUILD_ORIGIN = "http://prerender.invalid";

const booleanString = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((value) => value === "true" || value === "1" || value === "yes");

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
    DATABASE_URL: optionalUrl,
    SMTP_URL: optionalUrl,
    MAIL_FROM: optionalString,
    AUTH_PROVIDER: z.preprocess((value) => (value === "" ? undefined : value), z.enum(["local", "supabase"]).optional()),
    SUPABASE_URL: optionalUrl,
    SUPABASE_ANON_KEY: optionalString,
    APP_STAGE: z.enum(["development", "test", "staging", "production"]).default("development"),
    POSTHOG_KEY: optionalString,
    POSTHOG_HOST: optionalUrl,
    WEB_ANALYTICS_SRC: optionalUrl,
    TRUST_PROXY: booleanString.default(false),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  })
  .superRefine((env, ctx) => {
    if (env.APP_STAGE === "production" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required when APP_STAGE=production" });
    }
    if (env.AUTH_PROVIDER === "supabase" && (!env.SUPABASE_URL || !env.SUPABASE_ANON_KEY)) {
      ctx.addIssue({ code: "custom", path: ["AUTH_PROVIDER"], message: "supabase needs SUPABASE_URL and SUPABASE_ANON_KEY" });
    }
  });

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
  const building = appUrl.origin === BUILD_ORIGIN;
  const session = resolveSessionSecrets({ ...env, building });
  return {
    ...env,
    APP_URL: appUrl.origin,
    /** True while `npm run build` prerenders pages: nothing is started, nothing is said. */
    building,
    /** What the server says once at start about its configuration. */
    startupNotes: (building ? [] : [session.note].filter((note): note is StartupNote => note !== null)) as StartupNote[],
    secureCookies: appUrl.protocol === "https:",
    sessionSecrets: session.secrets,
    authProvider: env.AUTH_PROVIDER ?? (env.SUPABASE_URL ? "supabase" : "local"),
    analyticsEnabled: env.APP_STAGE === "production",
    /** Origins the browser may contact for analytics; only in production. */
    analyticsHosts:
      env.APP_STAGE === "production"
        ? [env.POSTHOG_KEY ? new URL(env.POSTHOG_HOST ?? "https://eu.i.posthog.com").origin : null, env.WEB_ANALYTICS_SRC ? new URL(env.WEB_ANALYTICS_SRC).origin : null].filter(
            (origin): origin is string => origin !== null,
          )
        : [],
  } as const;
}

export const env = parseEnv(process.env);
