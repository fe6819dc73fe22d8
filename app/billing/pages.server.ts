import { data, redirect, type RouterContextProvider } from "react-router";
import { returnAfterSignIn } from "../auth/guard.server";
import { userContext } from "../auth/session.server";
import { env } from "../config/env.server";
import { getDatabase } from "../db/db.server";
import { requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { PATHS } from "../http/paths";
import { campaignState } from "./campaign.server";
import { PaymentsUnavailable, verifyCheckout, type VerifiedCheckout } from "./checkout.server";
import { formatDay, formatMoney } from "./plans";
import { grantsPlan, planOf } from "./subscription-state.server";

type Context = Readonly<RouterContextProvider>;

/**
 * The plan cards: prices from configuration in the interface locale, shown whether payments are open or not, and
 * whether the plan can be bought. The same for every visitor.
 */
export function subscriptionPage(context: Context) {
  const locale = requestLocale(context);
  const prices = env.billing.supporterPrices;
  return {
    signedIn: context.get(userContext) !== null,
    supporter: {
      monthly: formatMoney(locale, prices.monthly, prices.currency),
      yearly: formatMoney(locale, prices.yearly, prices.currency),
      open: env.billing.supporter !== null,
    },
  };
}

/** The campaign with its totals, formatted; nothing about any one backer. */
export async function campaignPage(context: Context) {
  const locale = requestLocale(context);
  const state = await campaignState(await getDatabase());
  if (!state) return { campaign: null, signedIn: context.get(userContext) !== null };
  const money = (amount: number) => formatMoney(locale, amount, state.currency);
  const presets = [1_000, 2_500, 5_000].filter((amount) => amount >= state.minPledge && amount <= state.maxPledge);
  return {
    signedIn: context.get(userContext) !== null,
    campaign: {
      open: state.open,
      pledged: money(state.pledged),
      goal: money(state.goal),
      /** Whole percent for the meter's text; the bar itself is capped at the goal. */
      percent: Math.floor((state.pledged / state.goal) * 100),
      value: Math.min(state.pledged, state.goal),
      max: state.goal,
      backers: state.backers,
      daysLeft: state.daysLeft,
      endsOn: formatDay(locale, state.endsAt),
      presets: presets.map((amount) => ({ amount, label: money(amount) })),
      minLabel: money(state.minPledge),
      maxLabel: money(state.maxPledge),
    },
  };
}

export type CheckoutOutcome =
  | Exclude<VerifiedCheckout, { kind: "paid" }>
  | { kind: "missing" }
  | { kind: "paid"; amount: string; plan: string | null; period: string | null; renewsOn: string | null };

const statusOf: Record<CheckoutOutcome["kind"], number> = {
  missing: 200,
  "not-found": 404,
  "not-yours": 403,
  processing: 200,
  paid: 200,
};

/**
 * Where Checkout sends the browser back: the session is read from Stripe and must be this visitor's. A signed-out
 * visitor returning from a subscription signs in first and comes back here.
 */
export async function checkoutReturnPage(request: Request, context: Context, mode: "subscription" | "payment") {
  const locale = requestLocale(context);
  const url = new URL(request.url);
  const sessionId = url.searchParams.get("session_id");
  const user = context.get(userContext);
  const headers = { "Cache-Control": "private, no-store" };
  if (!sessionId) return data({ outcome: { kind: "missing" } as CheckoutOutcome, campaign: null }, { headers });
  if (!user && mode === "subscription") {
    const here = localePath(locale, PATHS.postPurchase) + url.search;
    throw redirect(localePath(locale, PATHS.signIn), { headers: { "Set-Cookie": await returnAfterSignIn(here) } });
  }
  let verified: VerifiedCheckout;
  try {
    verified = await verifyCheckout(sessionId, user?.id ?? null);
  } catch (error) {
    if (error instanceof PaymentsUnavailable) verified = { kind: "processing" };
    else throw error;
  }
  if (verified.kind === "paid" && verified.mode !== mode) verified = { kind: "not-found" };
  const outcome: CheckoutOutcome =
    verified.kind === "paid"
      ? {
          kind: "paid",
          amount: formatMoney(locale, verified.amount, verified.currency),
          plan: verified.plan,
          period: verified.period,
          renewsOn: verified.renewsAt ? formatDay(locale, verified.renewsAt) : null,
        }
      : verified;
  const campaign = mode === "payment" && outcome.kind === "paid" ? (await campaignPage(context)).campaign : null;
  return data({ outcome, campaign }, { status: statusOf[outcome.kind], headers });
}

/** The learner's plan as the account shows it. */
export async function billingPage(context: Context) {
  const locale = requestLocale(context);
  const user = context.get(userContext);
  if (!user) throw redirect(localePath(locale, PATHS.signIn));
  const plan = await planOf(await getDatabase(), user.id);
  return {
    open: env.billing.supporter !== null,
    plan: plan
      ? {
          name: plan.plan,
          period: plan.period,
          status: plan.status,
          granted: grantsPlan(plan),
          paymentFailed: plan.paymentFailed && plan.status !== "ended",
          periodEnd: plan.currentPeriodEnd ? formatDay(locale, plan.currentPeriodEnd) : null,
          amount: plan.amount && plan.currency ? formatMoney(locale, plan.amount, plan.currency) : null,
          hasCustomer: true,
        }
      : null,
  };
}

/** One line for the account home: the plan's name and status, or null on the free plan. */
export async function planLine(userId: string) {
  const plan = await planOf(await getDatabase(), userId);
  return plan && plan.status !== "ended" ? { name: plan.plan, status: plan.status, granted: grantsPlan(plan) } : null;
}
