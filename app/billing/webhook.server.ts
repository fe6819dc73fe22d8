import type { Stripe } from "stripe";
import { eq } from "drizzle-orm";
import { users } from "../auth/auth.schema";
import type { Database } from "../db/db.server";
import { announceDataChange } from "../server/data-changes.server";
import { log } from "../server/log.server";
import { publicDataChangedHere, publicDataVersionNow } from "../server/shared-data.server";
import { stripeEvents } from "./billing.schema";
import { recordPledge, recordRefund } from "./campaign.server";
import { isPeriod, isPlan } from "./plans";
import { applySubscriptionChange, planStatus } from "./subscription-state.server";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Loose = Record<string, unknown>;

const idOf = (value: unknown): string | null =>
  typeof value === "string"
    ? value
    : typeof (value as Loose | null)?.id === "string"
      ? ((value as Loose).id as string)
      : null;
const seconds = (value: unknown): Date | null => (isSeconds(value) ? new Date((value as number) * 1000) : null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The learner a Checkout Session or a subscription names, when that learner exists. */
async function existingUser(tx: Transaction, id: unknown): Promise<string | null> {
  if (typeof id !== "string" || !UUID.test(id)) return null;
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
  return row?.id ?? null;
}

/** The first item's period end: where Stripe keeps it for subscriptions (on items since API version 2025-03). */
function periodEnd(subscription: Loose): Date | null {
  const items = (subscription.items as { data?: Loose[] } | undefined)?.data ?? [];
  return seconds(items[0]?.current_period_end) ?? seconds(subscription.current_period_end);
}

function invoiceSubscription(invoice: Loose): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | undefined;
  return idOf(parent?.subscription_details?.subscription) ?? idOf(invoice.subscription);
}

function invoicePeriodEnd(invoice: Loose): Date | null {
  const lines = (invoice.lines as { data?: { period?: { end?: unknown } }[] } | undefined)?.data ?? [];
  return seconds(lines[0]?.period?.end);
}

const isObject = (value: unknown): value is Loose =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const absent = (value: unknown) => value === undefined || value === null;
const optional = (value: unknown, check: (value: unknown) => boolean) => absent(value) || check(value);
const isText = (value: unknown) => typeof value === "string";
/** An amount in minor units, as the integer columns hold it. */
const isAmount = (value: unknown) =>
  Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 2 ** 31;
/** Seconds since the epoch that make a date PostgreSQL can store (below 10^11, about the year 5100). */
const isSeconds = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) < 1e11;
/** An id, or the expanded object carrying it. */
const isIdLike = (value: unknown) => isText(value) || (isObject(value) && isText(value.id));
const isTextMap = (value: unknown) => isObject(value) && Object.values(value).every(isText);
const firstOfList = (value: unknown): { ok: boolean; first?: Loose } => {
  if (absent(value)) return { ok: true };
  if (!isObject(value) || !optional(value.data, Array.isArray)) return { ok: false };
  const list = (value.data ?? []) as unknown[];
  if (!list.every(isObject)) return { ok: false };
  return { ok: true, first: list[0] as Loose | undefined };
};

/** Every field an event's type is read for has the type Stripe gives it (absent or null where Stripe may omit it). */
function objectFits(type: string, object: Loose): boolean {
  switch (type) {
    case "checkout.session.completed": {
      const details = object.customer_details;
      return (
        isText(object.id) &&
        optional(object.metadata, isTextMap) &&
        optional(object.amount_total, isAmount) &&
        optional(object.currency, isText) &&
        optional(object.customer_email, isText) &&
        optional(details, (value) => isObject(value) && optional(value.email, isText)) &&
        [object.payment_intent, object.subscription, object.customer].every((id) => optional(id, isIdLike))
      );
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const items = firstOfList(object.items);
      const price = items.first?.price;
      return (
        isText(object.id) &&
        optional(object.status, isText) &&
        optional(object.metadata, isTextMap) &&
        optional(object.customer, isIdLike) &&
        optional(object.current_period_end, isSeconds) &&
        items.ok &&
        optional(items.first?.current_period_end, isSeconds) &&
        optional(price, isObject) &&
        optional((price as Loose | undefined)?.unit_amount, isAmount) &&
        optional((price as Loose | undefined)?.currency, isText)
      );
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const parent = object.parent;
      const details = isObject(parent) ? parent.subscription_details : undefined;
      const lines = firstOfList(object.lines);
      const period = lines.first?.period;
      return (
        optional(parent, isObject) &&
        optional(details, (value) => isObject(value) && optional(value.subscription, isIdLike)) &&
        optional(object.subscription, isIdLike) &&
        optional(object.customer, isIdLike) &&
        lines.ok &&
        optional(period, (value) => isObject(value) && optional(value.end, isSeconds))
      );
    }
    case "charge.refunded":
      return optional(object.payment_intent, isIdLike) && optional(object.amount_refunded, isAmount);
    default:
      return true;
  }
}

/**
 * The event a verified body describes, or null when it is not shaped like one: signed JSON can still be `[]`, `{}` or
 * an event whose fields have other types than Stripe gives them, and none of that may reach the database.
 */
export function wellFormedEvent(value: unknown): Stripe.Event | null {
  if (!isObject(value)) return null;
  const { id, type, created, data } = value;
  if (!isText(id) || id === "" || (id as string).length > 255) return null;
  if (!isText(type) || type === "" || !isSeconds(created)) return null;
  if (!isObject(data) || !isObject(data.object)) return null;
  return objectFits(type as string, data.object) ? (value as unknown as Stripe.Event) : null;
}

/** What one event changes; returns true when a public page (the campaign's totals) must be rendered again. */
async function apply(tx: Transaction, event: Stripe.Event): Promise<boolean> {
  const object = event.data.object as unknown as Loose;
  const eventAt = new Date(event.created * 1000);
  switch (event.type) {
    case "checkout.session.completed": {
      const metadata = (object.metadata ?? {}) as Record<string, string>;
      const paid = object.payment_status === "paid" || object.payment_status === "no_payment_required";
      const userId = await existingUser(tx, object.client_reference_id);
      if (object.mode === "payment" && metadata.kind === "pledge") {
        if (!paid) return false;
        const details = object.customer_details as { email?: string } | null;
        const email = details?.email ?? (object.customer_email as string | null);
        if (!email || typeof object.amount_total !== "number") return false;
        return recordPledge(tx, {
          checkoutSessionId: object.id as string,
          paymentIntentId: idOf(object.payment_intent),
          userId,
          email,
          amount: object.amount_total,
          currency: String(object.currency ?? ""),
        });
      }
      const subscriptionId = idOf(object.subscription);
      const customerId = idOf(object.customer);
      if (object.mode !== "subscription" || !userId || !subscriptionId || !customerId) return false;
      if (!isPlan(metadata.plan) || !isPeriod(metadata.period)) return false;
      await applySubscriptionChange(tx, {
        userId,
        customerId,
        subscriptionId,
        plan: metadata.plan,
        period: metadata.period,
        status: paid ? "active" : "pending",
        amount: typeof object.amount_total === "number" ? object.amount_total : null,
        currency: typeof object.currency === "string" ? object.currency : null,
        eventAt,
      });
      return false;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const metadata = (object.metadata ?? {}) as Record<string, string>;
      const customerId = idOf(object.customer);
      if (!customerId) return false;
      const status =
        event.type === "customer.subscription.deleted"
          ? "ended"
          : planStatus(String(object.status), object.cancel_at_period_end === true);
      const price = ((object.items as { data?: { price?: Loose }[] } | undefined)?.data ?? [])[0]?.price;
      await applySubscriptionChange(tx, {
        userId: await existingUser(tx, metadata.userId),
        customerId,
        subscriptionId: object.id as string,
        plan: isPlan(metadata.plan) ? metadata.plan : undefined,
        period: isPeriod(metadata.period) ? metadata.period : undefined,
        status,
        amount: typeof price?.unit_amount === "number" ? price.unit_amount : undefined,
        currency: typeof price?.currency === "string" ? price.currency : undefined,
        currentPeriodEnd: periodEnd(object) ?? undefined,
        paymentFailed: status === "ended" ? false : undefined,
        eventAt,
      });
      return false;
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const subscriptionId = invoiceSubscription(object);
      const customerId = idOf(object.customer);
      if (!subscriptionId || !customerId) return false;
      const paid = event.type === "invoice.paid";
      await applySubscriptionChange(tx, {
        userId: null,
        customerId,
        subscriptionId,
        status: paid ? "active" : "past_due",
        paymentFailed: !paid,
        fromInvoice: true,
        currentPeriodEnd: paid ? (invoicePeriodEnd(object) ?? undefined) : undefined,
        eventAt,
      });
      return false;
    }
    case "charge.refunded": {
      const paymentIntent = idOf(object.payment_intent);
      if (!paymentIntent || typeof object.amount_refunded !== "number") return false;
      return recordRefund(tx, paymentIntent, object.amount_refunded);
    }
    default:
      return false;
  }
}

/**
 * Applies a verified event once: its id is recorded in the same transaction as its effect, so a replay changes
 * nothing and a failure (answered 500, retried by Stripe) leaves no trace.
 */
export async function applyStripeEvent(db: Database, event: Stripe.Event): Promise<"applied" | "replayed"> {
  const outcome = await db.transaction(async (tx) => {
    const fresh = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (fresh.length === 0) return { replayed: true, publicChange: false, version: 0 };
    const publicChange = await apply(tx, event);
    // What the triggers moved the shared version to, so the next check for other instances' changes skips this one.
    return { replayed: false, publicChange, version: publicChange ? await publicDataVersionNow(tx) : 0 };
  });
  if (outcome.publicChange) {
    announceDataChange("pledges");
    publicDataChangedHere(outcome.version);
  }
  log.info("stripe event", { id: event.id, type: event.type, replayed: outcome.replayed });
  return outcome.replayed ? "replayed" : "applied";
}
