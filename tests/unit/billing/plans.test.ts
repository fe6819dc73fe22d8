import { describe, expect, it } from "vitest";
import { parseEnv } from "#app/config/env.server.ts";
import { parseAmount } from "#app/billing/actions.server.ts";
import { formatMoney } from "#app/billing/plans.ts";

const stripe = {
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  STRIPE_PRICE_SUPPORTER_MONTHLY: "price_m",
  STRIPE_PRICE_SUPPORTER_YEARLY: "price_y",
  SUPPORTER_MONTHLY_AMOUNT: "400",
  SUPPORTER_YEARLY_AMOUNT: "4000",
};

describe("billing configuration", () => {
  it("is closed without the Stripe variables: no client, no prices, no redirect origins", () => {
    const { billing } = parseEnv({});
    expect(billing).toMatchObject({ stripe: null, supporter: null, campaign: null, redirectOrigins: [] });
  });

  it("points the client at STRIPE_API_URL and lets forms lead to Stripe's pages and that origin", () => {
    const { billing } = parseEnv({ ...stripe, STRIPE_API_URL: "http://127.0.0.1:12111" });
    expect(billing.stripe).toMatchObject({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(billing.redirectOrigins).toEqual([
      "https://checkout.stripe.com",
      "https://billing.stripe.com",
      "http://127.0.0.1:12111",
    ]);
    expect(parseEnv(stripe).billing.stripe).toMatchObject({ host: "api.stripe.com", port: 443, protocol: "https" });
  });

  it.each(["STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_SUPPORTER_YEARLY", "SUPPORTER_MONTHLY_AMOUNT"])(
    "refuses a secret key without %s, naming it",
    (name) => {
      expect(() => parseEnv({ ...stripe, [name]: "" })).toThrow(
        new RegExp(`${name}: is required with STRIPE_SECRET_KEY`),
      );
    },
  );

  it("needs the campaign's goal and end together, and a valid currency", () => {
    expect(() => parseEnv({ CAMPAIGN_GOAL_AMOUNT: "500000" })).toThrow(/CAMPAIGN_ENDS_AT/);
    expect(() => parseEnv({ CAMPAIGN_ENDS_AT: "2027-01-31" })).toThrow(/CAMPAIGN_GOAL_AMOUNT/);
    expect(() => parseEnv({ BILLING_CURRENCY: "euro" })).toThrow(/BILLING_CURRENCY/);
    const { campaign } = parseEnv({ CAMPAIGN_GOAL_AMOUNT: "500000", CAMPAIGN_ENDS_AT: "2027-01-31" }).billing;
    expect(campaign).toMatchObject({ goal: 500000, currency: "eur", minPledge: 100, maxPledge: 100000, open: false });
    expect(campaign?.endsAt.toISOString()).toBe("2027-01-31T23:59:59.999Z");
  });
});

describe("amounts", () => {
  it.each([
    ["25", "eur", 2500],
    ["12.5", "eur", 1250],
    ["12,50", "eur", 1250],
    ["1000", "jpy", 1000],
    ["12.5", "jpy", null],
    ["-3", "eur", null],
    ["1e3", "eur", null],
    ["", "eur", null],
  ])("reads %j %s as %s minor units", (typed, currency, expected) => {
    expect(parseAmount(typed, currency)).toBe(expected);
  });

  it("formats in the interface locale with the configured currency", () => {
    expect(formatMoney("en", 400, "eur")).toBe("€4.00");
    expect(formatMoney("de", 400, "eur")).toMatch(/^4,00\s€$/);
    expect(formatMoney("uk", 400000, "eur")).toMatch(/^4\s000,00\sEUR$/);
    expect(formatMoney("en", 1000, "jpy")).toBe("¥1,000");
  });
});
