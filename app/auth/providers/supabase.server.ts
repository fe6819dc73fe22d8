import { env } from "../../config/env.server";
import { localePath } from "../../i18n/locales";
import { retry } from "../../server/retry";
import type { AuthProvider } from "./provider";
import { PATHS } from "../../http/paths";

/**
 * Supabase Auth proves the address; the app keeps its own session afterwards, so Supabase's cookies are not kept.
 * The e-mail template must link to `{{ .RedirectTo }}?token_hash={{ .TokenHash }}&type=email` (see README).
 */
async function client() {
  const { createServerClient } = await import("@supabase/ssr");
  return createServerClient(env.SUPABASE_URL!, env.SUPABASE_ANON_KEY!, {
    cookies: { getAll: () => [], setAll: () => {} },
    auth: { autoRefreshToken: false, persistSession: false, detectSessionInUrl: false },
  });
}

/** Only a request that never reached Supabase (network failure, gateway errors) is safe to repeat. */
function isRetryable(error: unknown): boolean {
  return (error as { name?: string })?.name === "AuthRetryableFetchError";
}

export const supabaseProvider: AuthProvider = {
  name: "supabase",
  linkParams: ["token_hash", "type"],

  async sendSignInLink(_db, { email, locale }) {
    await retry(
      async () => {
        const supabase = await client();
        const { error } = await supabase.auth.signInWithOtp({
          email,
          options: { emailRedirectTo: `${env.APP_URL}${localePath(locale, PATHS.confirm)}`, shouldCreateUser: true },
        });
        if (error) throw error;
      },
      { retryable: isRetryable },
    );
  },

  // Supabase reads the token hash only when it is verified, and verifying uses the link up.
  async linkAddress() {
    return { email: null, reason: "unknowable" };
  },

  async verify(_db, { token_hash: tokenHash, type }) {
    if (!tokenHash || type !== "email") return { ok: false, reason: "invalid" };
    const supabase = await client();
    const { data, error } = await supabase.auth.verifyOtp({ token_hash: tokenHash, type: "email" });
    if (error || !data.user?.email) {
      return { ok: false, reason: (error as { code?: string } | null)?.code === "otp_expired" ? "expired" : "invalid" };
    }
    return { ok: true, email: data.user.email };
  },
};
