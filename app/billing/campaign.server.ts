import { and, eq, gt, sql } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { env } from "../config/env.server";
import { pledges } from "./billing.schema";

export type CampaignTotals = { pledged: number; backers: number };

/** What completed pledges add up to, minus refunds, in the campaign's currency; a fully refunded backer drops out. */
export async function campaignTotals(db: Database, currency: string): Promise<CampaignTotals> {
  const net = sql<number>`${pledges.amount} - ${pledges.refunded}`;
  const [row] = await db
    .select({
      pledged: sql<string>`coalesce(sum(${net}), 0)`,
      backers: sql<string>`count(distinct coalesce(${pledges.userId}::text, ${pledges.email}))`,
    })
    .from(pledges)
    .where(and(eq(pledges.currency, currency), gt(net, 0)));
  return { pledged: Number(row?.pledged ?? 0), backers: Number(row?.backers ?? 0) };
}

/** The campaign as its page shows it, or null when no campaign is configured. */
export async function campaignState(db: Database, now = new Date()) {
  const campaign = env.billing.campaign;
  if (!campaign) return null;
  const totals = await campaignTotals(db, campaign.currency);
  const msLeft = campaign.endsAt.getTime() - now.getTime();
  return {
    ...totals,
    goal: campaign.goal,
    currency: campaign.currency,
    endsAt: campaign.endsAt.toISOString(),
    daysLeft: Math.max(0, Math.ceil(msLeft / 86_400_000)),
    /** Pledges are taken while Stripe is configured and the campaign has not ended. */
    open: campaign.open && msLeft > 0,
    minPledge: campaign.minPledge,
    maxPledge: campaign.maxPledge,
  };
}

/** Records a paid pledge once (a replayed or repeated completion adds nothing). True when it is new. */
export async function recordPledge(
  db: Database,
  pledge: {
    checkoutSessionId: string;
    paymentIntentId: string | null;
    userId: string | null;
    email: string;
    amount: number;
    currency: string;
  },
): Promise<boolean> {
  const inserted = await db
    .insert(pledges)
    .values({ ...pledge, email: pledge.email.toLowerCase(), currency: pledge.currency.toLowerCase() })
    .onConflictDoNothing()
    .returning({ id: pledges.checkoutSessionId });
  return inserted.length > 0;
}

/**
 * A refund of a pledge's payment: Stripe reports the total refunded so far, so the largest figure seen wins and a late
 * or replayed event never lowers it. False when no pledge was paid with that payment.
 */
export async function recordRefund(db: Database, paymentIntentId: string, totalRefunded: number): Promise<boolean> {
  const updated = await db
    .update(pledges)
    .set({ refunded: sql`least(${pledges.amount}, greatest(${pledges.refunded}, ${totalRefunded}))` })
    .where(eq(pledges.paymentIntentId, paymentIntentId))
    .returning({ id: pledges.checkoutSessionId });
  return updated.length > 0;
}

/**
 * Forgets every pledge made with this address (with or without an account): for account deletion and for a backer
 * who asks to be forgotten. Returns how many were removed: when any were, the caller announces a change of `pledges`
 * (app/server/data-changes.server.ts) once its transaction is committed. Stripe keeps its own payment records.
 */
export async function forgetPledgesOf(db: Database, email: string): Promise<number> {
  const removed = await db
    .delete(pledges)
    .where(eq(pledges.email, email.trim().toLowerCase()))
    .returning({ id: pledges.checkoutSessionId });
  return removed.length;
}
