/** Without the Stripe variables (the embedded default): the pages say payments are not open and offer no button. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, textOf, toastsIn } from "../support/app";

describe("payments not configured", () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp({
      STRIPE_SECRET_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      CAMPAIGN_GOAL_AMOUNT: "",
      CAMPAIGN_ENDS_AT: "",
    });
  });
  afterAll(() => app?.stop());

  it("shows the plans without any button that pretends to take a payment", async () => {
    const { html } = await app.browser().page("/subscription");
    expect(textOf(html)).toContain("Payments are not open yet: no plan can be bought today, and nothing is charged.");
    expect(html).not.toMatch(/<form[^>]*method="post"[^>]*action="\/subscription"/);
    expect(textOf(html)).not.toContain("Choose Supporter");
  });

  it("shows the Supporter plan's price, and beside it why it cannot be bought today", async () => {
    const { html } = await app.browser().page("/subscription");
    const card = textOf(html.slice(html.indexOf("Supporter</h2>")));
    expect(card).toContain("€4.00 per month");
    expect(card).toContain("or €40.00 per year");
    expect(card).toContain("Payments are not open yet: no plan can be bought today, and nothing is charged.");
    const german = textOf((await app.browser().page("/de/subscription")).html);
    expect(german).toContain("4,00 €");
  });

  it("says the campaign has not started and takes no pledge", async () => {
    const { html } = await app.browser().page("/crowdfunding-campaign");
    expect(textOf(html)).toContain("The campaign has not started yet");
    expect(textOf(html)).toContain("Pledges are not open");
    expect(html).not.toContain("<progress");
  });

  it("refuses a posted plan or pledge with a translated notice, and has no webhook endpoint", async () => {
    const browser = app.browser();
    const plan = await browser.request("/fr/subscription", {
      method: "POST",
      form: { plan: "supporter", period: "monthly" },
    });
    expect(plan.status).toBe(302);
    expect(toastsIn((await browser.page(plan.headers.get("Location")!)).html)[0]?.[0]).toBe(
      "Les paiements ne sont pas ouverts",
    );
    const pledge = await browser.request("/crowdfunding-campaign", {
      method: "POST",
      form: { amount: "1000", email: "a@example.com" },
    });
    expect(pledge.status).toBe(302);
    const hook = await browser.request("/webhooks/stripe", {
      method: "POST",
      body: "{}",
      headers: { "Content-Type": "application/json" },
    });
    expect(hook.status).toBe(404);
  });
});
