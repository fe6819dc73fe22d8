import { eq } from "drizzle-orm";
import type { Database } from "../db/db.server";
import { subscriptions } from "./billing.schema";
import type { Period, Plan, PlanStatus } from "./plans";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type LearnerPlan = typeof subscriptions.$inferSelect;

/** The learner's plan as the webhooks last described it (ended ones included), or null. */
export async function planOf(db: Database, userId: string): Promise<LearnerPlan | null> {
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  return row ?? null;
}

/** The plan counts (its benefits are granted) while it is paid for or being retried. */
export const grantsPlan = (plan: LearnerPlan | null): boolean =>
  plan !== null && (plan.status === "active" || plan.status === "canceling" || plan.status === "past_due");

/** Stripe's subscription status, with cancel_at_period_end, as the account shows it. */
export function planStatus(stripeStatus: string, cancelAtPeriodEnd: boolean): PlanStatus {
  if (stripeStatus === "canceled" || stripeStatus === "incomplete_expired") return "ended";
  if (stripeStatus === "past_due" || stripeStatus === "unpaid") return "past_due";
  if (stripeStatus === "incomplete" || stripeStatus === "paused") return "pending";
  return cancelAtPeriodEnd ? "canceling" : "active";
}

export type SubscriptionChange = {
  userId: string | null;
  customerId: string;
  subscriptionId: string;
  plan?: Plan;
  period?: Period;
  status?: PlanStatus;
  amount?: number | null;
  currency?: string | null;
  currentPeriodEnd?: Date | null;
  paymentFailed?: boolean;
  /** An invoice event: its status only lifts a plan out of past due (it never undoes a cancellation at period end). */
  fromInvoice?: boolean;
  /** When Stripe created the event describing this state. */
  eventAt: Date;
};

/**
 * Applies one event's view of a subscription. An event older than the one last applied changes nothing, and an ended
 * subscription never comes back (Stripe never revives one): events arriving out of order cannot regress the state.
 */
export async function applySubscriptionChange(tx: Transaction, change: SubscriptionChange): Promise<void> {
  const [current] = await tx
    .select()
    .from(subscriptions)
    .where(
      change.userId ? eq(subscriptions.userId, change.userId) : eq(subscriptions.subscriptionId, change.subscriptionId),
    )
    .for("update")
    .limit(1);
  const userId = change.userId ?? current?.userId;
  if (!userId) return;
  const defined = <T extends object>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
  const values = defined({
    customerId: change.customerId,
    subscriptionId: change.subscriptionId,
    plan: change.plan,
    period: change.period,
    status: change.status,
    amount: change.amount,
    currency: change.currency,
    currentPeriodEnd: change.currentPeriodEnd,
    paymentFailed: change.paymentFailed,
    eventAt: change.eventAt,
    updatedAt: new Date(),
  });
  if (!current) {
    if (!change.plan || !change.status) return;
    await tx.insert(subscriptions).values({
      userId,
      plan: change.plan,
      period: change.period ?? "monthly",
      status: change.status,
      ...values,
      customerId: change.customerId,
      subscriptionId: change.subscriptionId,
      eventAt: change.eventAt,
    });
    return;
  }
  const sameSubscription = current.subscriptionId === change.subscriptionId;
  if (change.eventAt < current.eventAt) return;
  if (sameSubscription && current.status === "ended") return;
  // Another subscription replaces the row only once the recorded one is over (or never got paid).
  if (!sameSubscription && current.status !== "ended" && current.status !== "pending") return;
  if (change.fromInvoice && change.status === "active" && current.status !== "past_due" && current.status !== "pending")
    delete values.status;
  if (
    current.currentPeriodEnd &&
    values.currentPeriodEnd &&
    values.currentPeriodEnd < current.currentPeriodEnd &&
    sameSubscription
  )
    delete values.currentPeriodEnd;
  await tx.update(subscriptions).set(values).where(eq(subscriptions.userId, userId));
}
