import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { env } from "../../config/env.server";
import { loginTokens } from "../auth.schema";
import { localePath } from "../../i18n/locales";
import { sendSignInMail } from "../mail.server";
import type { AuthProvider } from "./provider";
import { PATHS } from "../../http/paths";

export const LINK_LIFETIME_MS = 60 * 60 * 1000;
const hashToken = (token: string) => createHash("sha256").update(token).digest("base64url");
const isWellFormed = (token: string | undefined): token is string => !!token && /^[A-Za-z0-9_-]{20,100}$/.test(token);

/** The embedded provider: random single-use tokens, stored only as hashes, sent through SMTP. */
export const localProvider: AuthProvider = {
  name: "local",
  linkParams: ["token"],

  async sendSignInLink(db, { email, locale, t }) {
    const token = randomBytes(32).toString("base64url");
    const now = new Date();
    await db.delete(loginTokens).where(lt(loginTokens.expiresAt, new Date(now.getTime() - 24 * LINK_LIFETIME_MS)));
    await db.insert(loginTokens).values({
      tokenHash: hashToken(token),
      email,
      createdAt: now,
      expiresAt: new Date(now.getTime() + LINK_LIFETIME_MS),
    });
    const link = `${env.APP_URL}${localePath(locale, PATHS.confirm)}?token=${token}`;
    await sendSignInMail(email, t, link, locale);
  },

  async linkAddress(db, { token }) {
    if (!isWellFormed(token)) return { email: null, reason: "unusable" };
    const now = new Date();
    const [row] = await db
      .select({ email: loginTokens.email })
      .from(loginTokens)
      .where(
        and(eq(loginTokens.tokenHash, hashToken(token)), isNull(loginTokens.usedAt), gt(loginTokens.expiresAt, now)),
      )
      .limit(1);
    return row ? { email: row.email } : { email: null, reason: "unusable" };
  },

  async verify(db, { token }) {
    if (!isWellFormed(token)) return { ok: false, reason: "invalid" };
    const tokenHash = hashToken(token);
    const now = new Date();
    // One statement marks the token used, so two confirmations racing on two servers cannot both succeed.
    const [claimed] = await db
      .update(loginTokens)
      .set({ usedAt: now })
      .where(and(eq(loginTokens.tokenHash, tokenHash), isNull(loginTokens.usedAt), gt(loginTokens.expiresAt, now)))
      .returning({ email: loginTokens.email });
    if (claimed) return { ok: true, email: claimed.email };
    const [known] = await db.select().from(loginTokens).where(eq(loginTokens.tokenHash, tokenHash)).limit(1);
    if (!known) return { ok: false, reason: "invalid" };
    return { ok: false, reason: known.usedAt ? "used" : "expired" };
  },
};
