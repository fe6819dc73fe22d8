/** What scripts and tests that run the app in a child process (`node server.ts`) share. */

/** A desktop browser's User-Agent: the app treats bots differently (error pages, redirects). */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

/** The app's configuration variables: the caller's own environment must not leak them into a child server. */
export const APP_VARIABLES = [
  "NODE_ENV",
  "PORT",
  "HOST",
  "APP_URL",
  "SESSION_SECRET",
  "DATA_DIR",
  "DATABASE_URL",
  "DATABASE_DIRECT_URL",
  "SMTP_URL",
  "MAIL_FROM",
  "AUTH_PROVIDER",
  "SUPABASE_URL",
  "SUPABASE_ANON_KEY",
  "APP_STAGE",
  "POSTHOG_KEY",
  "POSTHOG_HOST",
  "WEB_ANALYTICS_SRC",
  "TRUST_PROXY",
  "LOG_LEVEL",
  "LEGAL_NAME",
  "CONTACT_EMAIL",
];

/** This process's environment without the app's variables, as the base of a child server's environment. */
export function environmentWithoutAppVariables(): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of APP_VARIABLES) delete env[name];
  return env;
}
