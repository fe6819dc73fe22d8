/**
 * Secrets nobody may run production with: values published in this repository (`.env.example`, README, compose.yaml,
 * docs) and obviously weak ones. tests/unit/config/known-secrets.test.ts reads those files and fails when one of their
 * example values for a secret would be accepted, so a new placeholder cannot slip through.
 */

/** Example values of secrets as the repository's documentation prints them (compared exactly). */
const PUBLISHED = new Set([
  "replace-with-64-hex-characters-from-openssl-rand-hex-32-000000000",
  "replace-with-a-long-random-password",
  "password",
  "sk_live_replace_with_your_key",
  "whsec_replace_with_the_endpoint_secret",
  "replace-with-the-anon-key",
]);

/** Words no generated secret holds but placeholders do (random base64 holds one of them about once in 10^6). */
const PLACEHOLDER_WORDS = [
  "change-me",
  "change_me",
  "changeme",
  "replace",
  "example",
  "secret",
  "password",
  "passwort",
  "placeholder",
  "your-",
  "your_",
  "dummy",
  "sample",
  "insecure",
  "generate",
];

/** A generated key of 32 characters or more has far more different characters than this. */
const MIN_DISTINCT_CHARACTERS = 10;

export const GENERATE_SECRET =
  "generate one with `openssl rand -base64 48` (or `node -e \"console.log(require('node:crypto').randomBytes(48).toString('base64'))\"`)";
/** Characters a URL's password can hold as they are: no `/`, `+` or `=` to break DATABASE_URL. */
export const GENERATE_PASSWORD = "generate one with `openssl rand -hex 32`";

/**
 * Why a value must not be used as a secret in production, or null. `signing`: a key only this installation knows
 * (session keys, Stripe's keys and webhook secret), also refused when it has too few different characters; passwords
 * of addresses and the Supabase anon key are only compared with published values and placeholder words.
 */
export function secretProblem(value: string, kind: "signing" | "credential"): string | null {
  if (PUBLISHED.has(value))
    return "is an example value published in the repository (.env.example, README, compose.yaml)";
  const lower = value.toLowerCase();
  const word = PLACEHOLDER_WORDS.find((candidate) => lower.includes(candidate));
  if (word) return `looks like a placeholder (it contains "${word}")`;
  if (kind === "signing") {
    const distinct = new Set(value).size;
    if (distinct < MIN_DISTINCT_CHARACTERS)
      return `is too easy to guess (only ${distinct} different character${distinct === 1 ? "" : "s"})`;
  }
  return null;
}

/** The password of a URL (`postgres://user:password@host/db`), decoded; null when it has none or cannot be parsed. */
export function passwordOf(url: string | undefined): string | null {
  if (!url || !URL.canParse(url)) return null;
  const { password } = new URL(url);
  if (!password) return null;
  try {
    return decodeURIComponent(password);
  } catch {
    return password;
  }
}
