import type { Stripe } from "stripe";
import { env } from "../config/env.server";
import { localePath, type Locale } from "../i18n/locales";
import { PATHS } from "../http/paths";
import { log } from "../server/log.server";
import type { Period, Plan } from "./plans";
import { stripeClient } from "./stripe.server";

/** Stripe could not be reached or refused the request: the learner is told to try again, nothing was charged. */
export class PaymentsUnavailable extends Error {}

const absolute = (locale: Locale, path: string) => env.APP_URL + localePath(locale, path);
/** Stripe replaces the placeholder with the session's id when it sends the browser back. */
const withSession = (url: string) => `${url}?session_id={CHECKOUT_SESSION_ID}`;

async function calling<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    log.warn("stripe request failed", { what, error: error instanceof Error ? error.message : String(error) });
    throw new PaymentsUnavailable(what);
  }
}

/** A hosted Checkout page for the plan (mode subscription); returns its URL. */
export async function startSubscriptionCheckout(input: {
  user: { id: string; email: string };
  customerId: string | null;
  plan: Plan;
  period: Period;
  locale: Locale;
}): Promise<string> {
  const stripe = await stripeClient();
  const prices = env.billing.supporter;
  if (!stripe || !prices) throw new PaymentsUnavailable("closed");
  const metadata = { userId: input.user.id, plan: input.plan, period: input.period };
  const session = await calling("checkout.sessions.create", () =>
    stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: prices[input.period].price, quantity: 1 }],
      client_reference_id: input.user.id,
      ...(input.customerId ? { customer: input.customerId } : { customer_email: input.user.email }),
      success_url: withSession(absolute(input.locale, PATHS.postPurchase)),
      cancel_url: absolute(input.locale, PATHS.subscription),
      metadata,
      subscription_data: { metadata },
    }),
  );
  if (!session.url) throw new PaymentsUnavailable("no checkout url");
  return session.url;
}

/** A hosted Checkout page for a one-off pledge (mode payment); returns its URL. */
export async function startPledgeCheckout(input: {
  userId: string | null;
  email: string;
  amount: number;
  currency: string;
  productName: string;
  locale: Locale;
}): Promise<string> {
  const stripe = await stripeClient();
  if (!stripe) throw new PaymentsUnavailable("closed");
  const metadata = { kind: "pledge" };
  const session = await calling("checkout.sessions.create", () =>
    stripe.checkout.sessions.create({
      mode: "payment",
      line_items: [
        {
          price_data: {
            currency: input.currency,
            unit_amount: input.amount,
            product_data: { name: input.productName },
          },
          quantity: 1,
        },
      ],
      ...(input.userId ? { client_reference_id: input.userId } : {}),
      customer_email: input.email,
      success_url: withSession(absolute(input.locale, PATHS.pledgeThanks)),
      cancel_url: absolute(input.locale, PATHS.crowdfunding),
      metadata,
      payment_intent_data: { metadata },
    }),
  );
  if (!session.url) throw new PaymentsUnavailable("no checkout url");
  return session.url;
}

/** A customer portal session (cards, invoices, cancellation) that returns to the billing page; returns its URL. */
export async function openBillingPortal(customerId: string, locale: Locale): Promise<string> {
  const stripe = await stripeClient();
  if (!stripe) throw new PaymentsUnavailable("closed");
  const session = await calling("billingPortal.sessions.create", () =>
    stripe.billingPortal.sessions.create({ customer: customerId, return_url: absolute(locale, PATHS.billing) }),
  );
  return session.url;
}

export type VerifiedCheckout =
  | { kind: "not-found" }
  | { kind: "not-yours" }
  | { kind: "processing" }
  | {
      kind: "paid";
      mode: "subscription" | "payment";
      amount: number;
      currency: string;
      plan: string | null;
      period: string | null;
      renewsAt: string | null;
    };

/**
 * A Checkout Session as Stripe has it (never as the return URL claims): whether it is this learner's, and paid. A
 * session of a signed-in purchase belongs only to that learner; an anonymous pledge's session to whoever holds its id.
 */
export async function verifyCheckout(sessionId: string, userId: string | null): Promise<VerifiedCheckout> {
  const stripe = await stripeClient();
  if (!stripe || !/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return { kind: "not-found" };
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["subscription"] });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return { kind: "not-found" };
    log.warn("stripe request failed", { what: "checkout.sessions.retrieve", error: String(error) });
    throw new PaymentsUnavailable("retrieve");
  }
  const owner = session.client_reference_id ?? null;
  if (session.mode === "subscription" ? owner !== userId : owner !== null && owner !== userId)
    return { kind: "not-yours" };
  if (session.status !== "complete" || session.payment_status !== "paid") return { kind: "processing" };
  const subscription = typeof session.subscription === "object" ? session.subscription : null;
  const item = subscription?.items?.data?.[0];
  return {
    kind: "paid",
    mode: session.mode === "subscription" ? "subscription" : "payment",
    amount: session.amount_total ?? 0,
    currency: session.currency ?? "eur",
    plan: session.metadata?.plan ?? null,
    period: session.metadata?.period ?? null,
    renewsAt: item?.current_period_end ? new Date(item.current_period_end * 1000).toISOString() : null,
  };
}

/**
 * Ends the learner's Stripe subscription at once (account deletion: nothing is charged for an account that is gone).
 * Throws PaymentsUnavailable when Stripe cannot be reached, so the caller keeps the account rather than a paid plan
 * nobody can cancel.
 */
export async function cancelSubscriptionNow(subscriptionId: string): Promise<void> {
  const stripe = await stripeClient();
  if (!stripe) throw new PaymentsUnavailable("closed");
  await calling("subscriptions.cancel", () => stripe.subscriptions.cancel(subscriptionId));
}
