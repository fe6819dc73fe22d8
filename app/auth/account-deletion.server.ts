import type { TFunction } from "i18next";
import { eq, inArray } from "drizzle-orm";
import { forgetAnalyticsPerson } from "../analytics/person-deletion.server";
import { forgetPledgesOf } from "../billing/campaign.server";
import type { Database } from "../db/db.server";
import { announceDataChange } from "../server/data-changes.server";
import { log } from "../server/log.server";
import { loginTokens, rateLimitEvents, users } from "./auth.schema";
import { sendMail } from "./mail.server";
import { signInRules } from "./rate-limit.server";
import type { User } from "./session.server";

/**
 * The word a learner types to confirm the deletion, in the page's language; compared ignoring case, accents and
 * surrounding spaces, so a phone keyboard's capital or Turkish dotted İ still counts.
 */
export function confirmsDeletion(t: TFunction, typed: unknown): boolean {
  const normalise = (text: string) => text.normalize("NFKD").replace(/\p{M}/gu, "").trim().toLowerCase();
  return typeof typed === "string" && typed !== "" && normalise(typed) === normalise(t("account:profile.delete.word"));
}

/**
 * Deletes a learner's account and everything of theirs, in one transaction: the user row (its sessions, terms,
 * examples, review logs and every table referencing users with `onDelete: "cascade"` go with it), the sign-in links
 * sent to the address and the rate-limit counters keyed by it. Once that is committed, the analytics provider (when
 * configured) is asked to delete the learner's person and events, off the request path.
 */
export async function deleteAccount(db: Database, user: User): Promise<void> {
  const addressKeys = [...new Set(signInRules(user.email, null).map((rule) => rule.key))];
  const pledgesForgotten = await db.transaction(async (tx) => {
    await tx.delete(users).where(eq(users.id, user.id));
    await tx.delete(loginTokens).where(eq(loginTokens.email, user.email));
    await tx.delete(rateLimitEvents).where(inArray(rateLimitEvents.key, addressKeys));
    // Data of other capabilities keyed by the address rather than the user id is forgotten here too.
    return forgetPledgesOf(tx, user.email);
  });
  // The campaign's totals changed, now that it is committed (a page drawn before the commit showed the old ones).
  if (pledgesForgotten > 0) announceDataChange("pledges");
  forgetAnalyticsPerson(user.id);
}

/** Tells the (former) learner that the account is gone; a mail failure is logged, the deletion stands. */
export async function sendDeletionMail(to: string, t: TFunction, language: string): Promise<void> {
  const subject = t("mail:deleted.subject");
  const lines = [t("mail:greeting"), "", t("mail:deleted.body"), "", t("mail:deleted.notYou")];
  try {
    await sendMail({ to, subject, lines, language });
  } catch (error) {
    log.error("account deletion mail not sent", { error: String(error) });
  }
}
