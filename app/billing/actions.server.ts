import { redirect, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { returnAfterSignIn } from "../auth/guard.server";
import { userContext } from "../auth/session.server";
import { env } from "../config/env.server";
import { getDatabase } from "../db/db.server";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import {
  cancelSubscriptionNow,
  openBillingPortal,
  PaymentsUnavailable,
  startPledgeCheckout,
  startSubscriptionCheckout,
} from "./checkout.server";
import { formatMoney, isPeriod, isPlan } from "./plans";
import { grantsPlan, planOf } from "./subscription-state.server";

type Context = Readonly<RouterContextProvider>;

/** Off to Stripe's hosted page: a 303, so the browser follows with a GET whatever the form's method was. */
const toStripe = (url: string) => new Response(null, { status: 303, headers: { Location: url } });

function toasts(request: Request, context: Context) {
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const page = (path: string) => localePath(locale, path);
  return {
    t,
    locale,
    page,
    error: (to: string, key: string, values: Record<string, unknown> = {}) =>
      redirectWithToast(request, page(to), translatedToast(t, "error", `billing:billing.toasts.${key}`, values)),
  };
}

/** A plan's form: a signed-out visitor signs in first and comes back; a learner goes to Checkout. */
export async function subscribe(request: Request, context: Context): Promise<Response> {
  const form = await readForm(request);
  const { locale, page, error, t } = toasts(request, context);
  if (!env.billing.supporter) return error(PATHS.subscription, "closed");
  const user = context.get(userContext);
  if (!user) {
    return redirectWithToast(
      request,
      page(PATHS.signIn),
      translatedToast(t, "info", "billing:billing.toasts.signInFirst"),
      { headers: { "Set-Cookie": await returnAfterSignIn(page(PATHS.subscription)) } },
    );
  }
  const plan = form.get("plan");
  const period = form.get("period");
  if (!isPlan(plan) || !isPeriod(period)) return error(PATHS.subscription, "invalidChoice");
  const current = await planOf(await getDatabase(), user.id);
  if (grantsPlan(current)) return error(PATHS.billing, "alreadySubscribed");
  try {
    return toStripe(
      await startSubscriptionCheckout({ user, customerId: current?.customerId ?? null, plan, period, locale }),
    );
  } catch (failure) {
    if (failure instanceof PaymentsUnavailable) return error(PATHS.subscription, "unavailable");
    throw failure;
  }
}

/** "Manage billing": a customer portal session for the learner's Stripe customer. */
export async function manageBilling(request: Request, context: Context): Promise<Response> {
  await readForm(request);
  const { locale, error } = toasts(request, context);
  const user = context.get(userContext);
  if (!user) throw redirect(localePath(locale, PATHS.signIn));
  const current = await planOf(await getDatabase(), user.id);
  if (!current) return error(PATHS.billing, "noCustomer");
  try {
    return toStripe(await openBillingPortal(current.customerId, locale));
  } catch (failure) {
    if (failure instanceof PaymentsUnavailable) return error(PATHS.billing, "unavailable");
    throw failure;
  }
}

/** Whole and decimal amounts as people type them ("25", "12.50", "12,5"), in the currency's minor unit. */
export function parseAmount(value: string, currency: string): number | null {
  const match = /^\s*(\d{1,7})(?:[.,](\d{1,2}))?\s*$/.exec(value);
  if (!match) return null;
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  if (match[2] && digits === 0) return null;
  const fraction = (match[2] ?? "").padEnd(digits, "0").slice(0, digits);
  return Number(match[1]) * 10 ** digits + Number(fraction || 0);
}

const email = z.email().max(254);

/** A pledge: a preset or a custom amount within the campaign's bounds, from a learner or an e-mail address. */
export async function pledge(request: Request, context: Context): Promise<Response> {
  const form = await readForm(request);
  const { locale, error, t } = toasts(request, context);
  const campaign = env.billing.campaign;
  if (!campaign?.open || campaign.endsAt.getTime() <= Date.now()) return error(PATHS.crowdfunding, "pledgesClosed");
  const custom = String(form.get("custom") ?? "").trim();
  const amount = custom ? parseAmount(custom, campaign.currency) : Number(form.get("amount"));
  const bounds = {
    min: formatMoney(locale, campaign.minPledge, campaign.currency),
    max: formatMoney(locale, campaign.maxPledge, campaign.currency),
  };
  if (amount === null || !Number.isInteger(amount) || amount < campaign.minPledge || amount > campaign.maxPledge)
    return error(PATHS.crowdfunding, "invalidAmount", bounds);
  const user = context.get(userContext);
  const address = user?.email ?? email.safeParse(String(form.get("email") ?? "").trim()).data;
  if (!address) return error(PATHS.crowdfunding, "invalidEmail");
  try {
    return toStripe(
      await startPledgeCheckout({
        userId: user?.id ?? null,
        email: address,
        amount,
        currency: campaign.currency,
        productName: t("billing:crowdfunding.productName"),
        locale,
      }),
    );
  } catch (failure) {
    if (failure instanceof PaymentsUnavailable) return error(PATHS.crowdfunding, "unavailable");
    throw failure;
  }
}

/**
 * Before an account is deleted: a plan still charged is cancelled at Stripe. Null when the deletion may go on, else
 * the redirect that says payments could not be reached (the account stays, so the plan can still be managed).
 */
export async function endPlanBeforeDeletion(
  request: Request,
  context: Context,
  userId: string,
  back: string,
): Promise<Response | null> {
  const current = await planOf(await getDatabase(), userId);
  if (!current || current.status === "ended") return null;
  try {
    await cancelSubscriptionNow(current.subscriptionId);
    return null;
  } catch (failure) {
    if (!(failure instanceof PaymentsUnavailable)) throw failure;
    const { t } = getInstance(context);
    return redirectWithToast(request, back, translatedToast(t, "error", "billing:billing.toasts.unavailable"));
  }
}
