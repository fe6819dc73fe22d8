/**
 * The two paying journeys, with JavaScript on and off, against the fake of Stripe's API and hosted pages that the
 * global setup starts (tests/support/fake-stripe.ts; it signs and delivers the webhook events when "Pay" is pressed).
 */
import { expect, learnerTest, t, test, openAccountMenu } from "./support";
import { uniqueAddress } from "./mail";

/** The campaign's pledged total in euros, read from its text ("€75.00 pledged of €5,000.00"). */
const pledgedIn = (text: string) => Number(/€([\d,.]+) pledged of/.exec(text)![1]!.replaceAll(",", ""));

learnerTest(
  "choose a plan, pay on Stripe's page, see the plan on post-purchase and the account, then manage billing",
  async ({ page }) => {
    await page.goto("/subscription");
    await expect(page.locator("main")).toContainText("€4.00 per month");
    const supporter = t("en", "billing:subscription.plans.supporter.name");
    await page.getByRole("button", { name: t("en", "billing:subscription.choose", { plan: supporter }) }).click();

    await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
    await expect(page.locator("main")).toContainText("Pay 4.00 EUR");
    await page.getByRole("button", { name: "Pay" }).click();

    await expect(page).toHaveURL(
      (url) => url.pathname === "/subscription/post-purchase" && url.searchParams.has("session_id"),
    );
    await expect(page.locator("main h1")).toHaveText(t("en", "titles.postPurchase"));
    await expect(page.locator("main")).toContainText("Your Supporter plan is paid: €4.00 per month.");
    await expect(page.locator("main")).toContainText(/Next renewal: \w+ \d{1,2}, \d{4}\./);

    await page.getByRole("link", { name: t("en", "billing:postPurchase.seePlan") }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/account/billing");
    await expect(page.locator("main")).toContainText("Your plan: Supporter (active)");
    await openAccountMenu(page, "en");
    await page
      .getByRole("link", { name: t("en", "nav.profile") })
      .first()
      .click();
    await expect(page.locator("main .plan-line")).toContainText("Your plan: Supporter (active)");

    await page
      .locator("main .plan-line")
      .getByRole("link", { name: t("en", "titles.billing") })
      .click();
    await page.getByRole("button", { name: t("en", "billing:billing.manage") }).click();
    await expect(page.getByRole("heading", { name: "Fake Stripe customer portal" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Polyglot" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/account/billing");
  },
);

test("pledge with an e-mail address, pay, see the thank-you page, and the campaign total has moved", async ({
  page,
}) => {
  await page.goto("/crowdfunding-campaign");
  const progress = page.getByRole("progressbar", { name: t("en", "billing:crowdfunding.progressLabel") });
  await expect(progress).toBeVisible();
  const before = pledgedIn(await page.locator("main .campaign-total").innerText());

  await page.getByLabel(t("en", "billing:crowdfunding.customAmount")).fill("25");
  await page.getByLabel(t("en", "billing:crowdfunding.emailLabel")).fill(uniqueAddress("backer"));
  await page.getByRole("button", { name: t("en", "billing:crowdfunding.pledgeButton"), exact: true }).click();

  await expect(page.locator("main")).toContainText("Pay 25.00 EUR");
  await page.getByRole("button", { name: "Pay" }).click();

  await expect(page).toHaveURL((url) => url.pathname === "/crowdfunding-campaign/thank-you");
  await expect(page.locator("main h1")).toHaveText(t("en", "titles.pledgeThanks"));
  await expect(page.locator("main")).toContainText("Your pledge of €25.00 is paid.");

  await page.getByRole("link", { name: t("en", "billing:checkout.backToCampaign") }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/crowdfunding-campaign");
  // Other runs may pledge at the same time: the total has moved by this pledge at least.
  expect(pledgedIn(await page.locator("main .campaign-total").innerText())).toBeGreaterThanOrEqual(before + 25);
});
