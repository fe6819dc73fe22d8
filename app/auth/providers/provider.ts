import type { TFunction } from "i18next";
import type { Database } from "../../db/db.server";
import type { Locale } from "../../i18n/locales";

export type SignInLinkRequest = { email: string; locale: Locale; t: TFunction };
export type VerifyFailure = "expired" | "used" | "invalid";
/** Whom a link signs in, as far as the provider can tell without using it up. */
export type LinkAddress = { email: string } | { email: null; reason: "unusable" | "unknowable" };
export type VerifyResult = { ok: true; email: string } | { ok: false; reason: VerifyFailure };

/** Proves that a visitor owns an e-mail address. The app keeps its own session once a provider says yes. */
export interface AuthProvider {
  readonly name: "local" | "supabase";
  /** Query parameters of the sign-in link that the confirm page carries into its form POST. */
  readonly linkParams: readonly string[];
  /** Sends the sign-in message; throws when it could not be sent. */
  sendSignInLink(db: Database, request: SignInLinkRequest): Promise<void>;
  /** The address a link would sign in, read without consuming the link (the confirm page names it). */
  linkAddress(db: Database, params: Record<string, string>): Promise<LinkAddress>;
  /** Checks the link's parameters; a link works once. */
  verify(db: Database, params: Record<string, string>): Promise<VerifyResult>;
}
