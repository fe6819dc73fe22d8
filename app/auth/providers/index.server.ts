import { env } from "../../config/env.server";
import { localProvider } from "./local.server";
import type { AuthProvider } from "./provider";
import { supabaseProvider } from "./supabase.server";

const PROVIDERS: Record<AuthProvider["name"], AuthProvider> = { local: localProvider, supabase: supabaseProvider };

/** The provider chosen by configuration (AUTH_PROVIDER, or supabase when SUPABASE_URL is set). */
export const authProvider: AuthProvider = PROVIDERS[env.authProvider];
