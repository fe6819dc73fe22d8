import { z } from "zod";

/**
 * The billing part of the configuration contract (validated with the rest in app/config/env.server.ts). Amounts are
 * in the currency's minor unit (cents), as Stripe counts them.
 */
const optional = <T extends z.ZodType>(type: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), type.optional());
const amount = optional(z.coerce.number().int().positive());
const currencyCode = z.preprocess(
  (value) => (value === "" ? undefined : typeof value === "string" ? value.toLowerCase() : value),
  z
    .string()
    .regex(/^[a-z]{3}$/, "expects a three-letter ISO currency code such as eur")
    .optional(),
);

export const billingEnvShape = {
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_URL: optional(z.url()),
  STRIPE_PRICE_SUPPORTER_MONTHLY: optional(z.string()),
  STRIPE_PRICE_SUPPORTER_YEARLY: optional(z.string()),
  SUPPORTER_MONTHLY_AMOUNT: amount,
  SUPPORTER_YEARLY_AMOUNT: amount,
  BILLING_CURRENCY: currencyCode,
  CAMPAIGN_GOAL_AMOUNT: amount,
  CAMPAIGN_CURRENCY: currencyCode,
  CAMPAIGN_ENDS_AT: optional(z.iso.date()),
  CAMPAIGN_MIN_PLEDGE: amount,
  CAMPAIGN_MAX_PLEDGE: amount,
};

type BillingInput = { [K in keyof typeof billingEnvShape]?: z.output<(typeof billingEnvShape)[K]> };

const SUBSCRIPTION_VARIABLES = [
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_PRICE_SUPPORTER_MONTHLY",
  "STRIPE_PRICE_SUPPORTER_YEARLY",
  "SUPPORTER_MONTHLY_AMOUNT",
  "SUPPORTER_YEARLY_AMOUNT",
] as const;

/** The prices shown for the Supporter plan when none are configured (minor units: 4.00 a month, 40.00 a year). */
const DEFAULT_SUPPORTER_AMOUNTS = { monthly: 400, yearly: 4000 };

/** Stripe's own address; `STRIPE_API_URL` points the client at a fake or stripe-mock instead. */
const STRIPE_API = "https://api.stripe.com";

/** With a secret key, every subscription variable is required; a campaign needs its goal and its end together. */
export function checkBillingEnv(env: BillingInput, issue: (path: string, message: string) => void): void {
  if (env.STRIPE_SECRET_KEY) {
    for (const name of SUBSCRIPTION_VARIABLES) if (!env[name]) issue(name, "is required with STRIPE_SECRET_KEY");
  } else if (env.STRIPE_WEBHOOK_SECRET) {
    issue("STRIPE_SECRET_KEY", "is required with STRIPE_WEBHOOK_SECRET");
  }
  if (Boolean(env.CAMPAIGN_GOAL_AMOUNT) !== Boolean(env.CAMPAIGN_ENDS_AT)) {
    issue(
      env.CAMPAIGN_GOAL_AMOUNT ? "CAMPAIGN_ENDS_AT" : "CAMPAIGN_GOAL_AMOUNT",
      "the campaign needs both its goal and its end date",
    );
  }
  const min = env.CAMPAIGN_MIN_PLEDGE ?? 100;
  const max = env.CAMPAIGN_MAX_PLEDGE ?? 100_000;
  if (min > max) issue("CAMPAIGN_MIN_PLEDGE", "is larger than CAMPAIGN_MAX_PLEDGE");
}

/** The derived billing configuration: null parts are closed (the pages say so and offer no button). */
export function billingConfig(env: BillingInput) {
  const apiUrl = new URL(env.STRIPE_API_URL ?? STRIPE_API);
  const stripe =
    env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET,
          host: apiUrl.hostname,
          port: Number(apiUrl.port || (apiUrl.protocol === "https:" ? 443 : 80)),
          protocol: apiUrl.protocol === "http:" ? ("http" as const) : ("https" as const),
        }
      : null;
  const currency = env.BILLING_CURRENCY ?? "eur";
  return {
    stripe,
    /** Where a form may send the browser on: Stripe's hosted pages (and a fake's, in tests and staging). */
    redirectOrigins: stripe
      ? [
          "https://checkout.stripe.com",
          "https://billing.stripe.com",
          ...(apiUrl.origin === STRIPE_API ? [] : [apiUrl.origin]),
        ]
      : [],
    /** The Supporter plan's prices as the plan cards show them, also while payments are closed. */
    supporterPrices: {
      currency,
      monthly: env.SUPPORTER_MONTHLY_AMOUNT ?? DEFAULT_SUPPORTER_AMOUNTS.monthly,
      yearly: env.SUPPORTER_YEARLY_AMOUNT ?? DEFAULT_SUPPORTER_AMOUNTS.yearly,
    },
    supporter: stripe
      ? {
          currency,
          monthly: { price: env.STRIPE_PRICE_SUPPORTER_MONTHLY!, amount: env.SUPPORTER_MONTHLY_AMOUNT! },
          yearly: { price: env.STRIPE_PRICE_SUPPORTER_YEARLY!, amount: env.SUPPORTER_YEARLY_AMOUNT! },
        }
      : null,
    campaign:
      env.CAMPAIGN_GOAL_AMOUNT && env.CAMPAIGN_ENDS_AT
        ? {
            goal: env.CAMPAIGN_GOAL_AMOUNT,
            currency: env.CAMPAIGN_CURRENCY ?? currency,
            /** The last day of the campaign, to its end in UTC. */
            endsAt: new Date(`${env.CAMPAIGN_ENDS_AT}T23:59:59.999Z`),
            minPledge: env.CAMPAIGN_MIN_PLEDGE ?? 100,
            maxPledge: env.CAMPAIGN_MAX_PLEDGE ?? 100_000,
            /** Pledges are taken only while Stripe is configured. */
            open: stripe !== null,
          }
        : null,
  };
}

export type BillingConfig = ReturnType<typeof billingConfig>;
