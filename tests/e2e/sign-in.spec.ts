import type { Page } from "@playwright/test";
import { linkIn, mailFor, forwardedFor, uniqueAddress } from "./mail";
import {
  BROWSER_USER_AGENT,
  expect,
  t,
  test,
  waitForHydration,
  type Locale,
  openAccountMenu,
  pageTitle,
  skipWelcome,
} from "./support";

// Sign-in mail goes through a real SMTP server (smtp-server on loopback, started by global-setup).
test.use({ extraHTTPHeaders: forwardedFor() });

async function requestLink(page: Page, email: string, javaScriptEnabled: boolean, lng: Locale = "en") {
  if (javaScriptEnabled) await waitForHydration(page);
  const main = page.locator("main");
  await main.getByLabel(t(lng, "pages:form.emailLabel")).fill(email);
  await main.getByRole("button", { name: t(lng, "pages:form.submit") }).click();
}

const toast = (page: Page) => page.getByRole("status").locator("li");

test("signs in end to end from a guarded page, lands on it, and signs out", async ({ page, javaScriptEnabled }) => {
  const email = uniqueAddress("e2e");
  await page.goto("/account/explore/member?q=haus");
  await expect(page).toHaveURL(/\/form$/);
  await requestLink(page, email, javaScriptEnabled);
  await expect(toast(page)).toContainText("Check your inbox");
  await expect(toast(page)).toContainText("An email has been sent to you, please check your inbox to complete login.");

  const mail = await mailFor(email);
  expect(mail.subject).toBe(t("en", "mail:subject"));
  await page.goto(linkIn(mail));
  // The page names the address and waits for the click, with JavaScript too (scanners run scripts).
  await expect(page.locator("main")).toContainText(t("en", "pages:confirm.signingInAs", { email }));
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(page).toHaveURL(/\/confirm\?token=/);
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/explore\/member\?q=haus$/);
  await expect(page.locator("h1")).toHaveText(t("en", "titles.member"));
  await expect(toast(page)).toContainText(email);

  await openAccountMenu(page, "en");
  await page.getByRole("button", { name: t("en", "nav.signOut") }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page)).toContainText(t("en", "toast.signedOut.title"));
  await page.goto("/account/home");
  await expect(page).toHaveURL(/\/form$/);
});

test("refuses an invalid address with the 'Email' toast", async ({ page, javaScriptEnabled }) => {
  await page.goto("/form");
  // The browser accepts "learner@localhost"; the server asks for a real domain.
  await requestLink(page, "learner@localhost", javaScriptEnabled);
  await expect(toast(page)).toContainText("Email");
  await expect(toast(page)).toContainText("please provide a valid email");
});

test("a refused address stays in the field, marked invalid and described by the toast's message", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.goto("/form");
  await requestLink(page, "learner@localhost", javaScriptEnabled);
  await expect(toast(page)).toContainText(t("en", "toast.invalidEmail.description"));
  const field = page.locator("main").getByLabel(t("en", "pages:form.emailLabel"));
  await expect(field).toHaveValue("learner@localhost");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const [first] = (await field.getAttribute("aria-describedby"))!.split(" ");
  await expect(page.locator(`[id="${first}"]`)).toHaveText(t("en", "toast.invalidEmail.description"));
  await expect(field).toHaveAccessibleDescription(new RegExp(`^${t("en", "toast.invalidEmail.description")}`));
  // A good address then goes through: the field is no longer marked.
  await field.fill(uniqueAddress("typo-then-fine"));
  await page
    .locator("main")
    .getByRole("button", { name: t("en", "pages:form.submit") })
    .click();
  await expect(toast(page).last()).toContainText(t("en", "toast.sent.title"));
  await expect(page.locator("[aria-invalid]")).toHaveCount(0);
});

test("shows the 'Error' toast when the mail server refuses the message", async ({ page, javaScriptEnabled }) => {
  await page.goto("/form");
  await requestLink(page, uniqueAddress("refuse"), javaScriptEnabled);
  await expect(toast(page)).toContainText("Error");
  await expect(toast(page)).toContainText("An error occurred while sending the email.");
});

test("a used link lands on the error page with a way to request a new one", async ({
  page,
  browser,
  javaScriptEnabled,
  consoleGuard,
}) => {
  const email = uniqueAddress("reuse");
  await page.goto("/form");
  await requestLink(page, email, javaScriptEnabled);
  const link = linkIn(await mailFor(email));
  await page.goto(link);
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/home$/);

  // The same link again, in another browser.
  const other = await browser.newContext({
    javaScriptEnabled,
    userAgent: BROWSER_USER_AGENT,
    extraHTTPHeaders: forwardedFor(),
  });
  consoleGuard.watch(other);
  const tab = await other.newPage();
  await tab.goto(link);
  await tab.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(tab).toHaveURL(/\/error\?reason=used$/);
  await expect(tab.locator(".error-reason")).toHaveText(t("en", "signInError.used"));
  await expect(tab.getByRole("link", { name: t("en", "pages:error.retry") })).toHaveAttribute("href", "/form");
  await other.close();
});

test("a used link opened again while signed in says so and leads home, with no button to confirm", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueAddress("again");
  await page.goto("/form");
  await requestLink(page, email, javaScriptEnabled);
  const link = linkIn(await mailFor(email));
  await page.goto(link);
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/home$/);

  // The second click on the mail's link, in the same browser.
  await page.goto(link);
  if (javaScriptEnabled) await waitForHydration(page);
  const main = page.locator("main");
  await expect(main).toContainText(t("en", "pages:confirm.spentSignedIn"));
  // Titled for what it is, not “Confirm sign-in”.
  await expect(page).toHaveTitle(pageTitle(t("en", "titles.alreadySignedIn")));
  await expect(main.locator("h1")).toHaveText(t("en", "titles.alreadySignedIn"));
  await expect(main).toContainText(t("en", "pages:confirm.signedInAs", { email }));
  await expect(main.getByRole("button")).toHaveCount(0);
  await main.getByRole("link", { name: t("en", "pages:confirm.goHome") }).click();
  await expect(page).toHaveURL(/\/account\/home$/);

  // In German too, and for a link that never existed.
  await page.goto("/de/confirm?token=" + "x".repeat(43));
  await expect(page.locator("main")).toContainText(t("de", "pages:confirm.spentSignedIn"));
  await expect(page).toHaveTitle(pageTitle(t("de", "titles.alreadySignedIn")));
  await expect(page.locator("main").getByRole("link", { name: t("de", "pages:confirm.goHome") })).toHaveAttribute(
    "href",
    "/de/account/home",
  );
});

test("on a phone the sign-in toasts push the form down instead of covering it", async ({ page, javaScriptEnabled }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/form");
  await requestLink(page, "learner@localhost", javaScriptEnabled);
  await expect(toast(page)).toContainText(t("en", "toast.invalidEmail.title"));
  const box = async (selector: string) => (await page.locator(selector).first().boundingBox())!;
  const message = await box(".toast");
  const header = await box(".site-header");
  // Below the header, above the heading: nothing of the page is under it.
  expect(message.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(message.y + message.height).toBeLessThanOrEqual((await box("main h1")).y);
  const form = await box("main form.sign-in-form");
  expect(message.y + message.height).toBeLessThanOrEqual(form.y);
  // Once it is gone (five seconds, by CSS without JavaScript), it gives its room back.
  const headingBefore = (await box("main h1")).y;
  await expect(toast(page).locator("visible=true")).toHaveCount(0, { timeout: 8_000 });
  await expect.poll(async () => (await box("main h1")).y).toBeLessThan(headingBefore - message.height + 1);

  // The same after a link was sent: the toast sits above the page's own words.
  await page.goto("/form");
  await requestLink(page, uniqueAddress("phone"), javaScriptEnabled);
  await expect(toast(page)).toContainText(t("en", "toast.sent.title"));
  const sent = await box(".toast");
  expect(sent.y + sent.height).toBeLessThanOrEqual((await box(".sent-panel")).y);
});

test("a guarded page sends a signed-out visitor to the sign-in page in their language", async ({ page }) => {
  await page.goto("/de/account/home");
  await expect(page).toHaveURL(/\/de\/form$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
});

for (const lng of ["en", "de", "uk"] as const) {
  test(`shows the sign-in toasts in ${lng}`, async ({ page, javaScriptEnabled }) => {
    const prefix = lng === "en" ? "" : `/${lng}`;
    await page.goto(`${prefix}/form`);
    await requestLink(page, uniqueAddress(`toast-${lng}`), javaScriptEnabled, lng);
    await expect(toast(page)).toContainText(t(lng, "toast.sent.title"));
    await expect(toast(page)).toContainText(t(lng, "toast.sent.description"));
    await page.getByRole("link", { name: t(lng, "pages:form.sent.another") }).click();
    await requestLink(page, "learner@localhost", javaScriptEnabled, lng);
    await expect(toast(page).last()).toContainText(t(lng, "toast.invalidEmail.title"));
    await expect(toast(page).last()).toContainText(t(lng, "toast.invalidEmail.description"));
  });
}

test("after a link is requested, /form keeps a panel naming the address and offers another link once the wait is over", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = uniqueAddress("panel");
  // With JavaScript the countdown runs on the page's clock, which the test moves forward.
  if (javaScriptEnabled) await page.clock.install();
  await page.goto("/de/form");
  await requestLink(page, email, javaScriptEnabled, "de");
  const panel = page.locator(".sent-panel");
  await expect(panel).toContainText(t("de", "pages:form.sent.body", { email }));
  await expect(toast(page)).toContainText(t("de", "toast.sent.title"));
  // The toast says "Check your inbox"; the page does not say it again in a card of its own.
  await expect(page.locator("main")).not.toContainText(t("de", "toast.sent.title"));
  await expect(page.locator("main .card")).toHaveCount(0);
  const resend = panel.getByRole("button", { name: t("de", "pages:form.sent.resend") });
  await expect(resend).toBeDisabled();
  await expect(panel).toContainText(/Einen neuen Link kannst du in \d+ Sekunden? anfordern\./);

  // The toast goes, the panel stays.
  await page.reload();
  if (javaScriptEnabled) await waitForHydration(page);
  await expect(toast(page)).toHaveCount(0);
  await expect(panel).toContainText(email);
  await expect(page.locator("main").getByLabel(t("de", "pages:form.emailLabel"))).toHaveCount(0);
  if (javaScriptEnabled) {
    await page.clock.fastForward(61_000);
    await expect(resend).toBeEnabled();
    await expect(panel).not.toContainText("Sekunde");
  }

  await panel.getByRole("link", { name: t("de", "pages:form.sent.another") }).click();
  await expect(page).toHaveURL(/\/de\/form\?another=1$/);
  await expect(page.locator("main").getByLabel(t("de", "pages:form.emailLabel"))).toBeVisible();
});

test("a toast can be dismissed with JavaScript", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "dismissing needs JavaScript; without it the toast hides itself by CSS after 5 s");
  await page.goto("/form");
  await requestLink(page, "learner@localhost", true);
  await expect(toast(page)).toHaveCount(1);
  await page.getByRole("button", { name: t("en", "toast.dismiss") }).click();
  await expect(toast(page)).toHaveCount(0);
});

test("signs out everywhere from the account home: the other device is signed out too", async ({
  page,
  browser,
  javaScriptEnabled,
  consoleGuard,
}) => {
  const email = uniqueAddress("everywhere");
  await page.goto("/form");
  await requestLink(page, email, javaScriptEnabled);
  await page.goto(linkIn(await mailFor(email)));
  await page.getByRole("button", { name: t("en", "pages:confirm.submit") }).click();
  await expect(page).toHaveURL(/\/account\/home$/);
  // Past the welcome, to the dashboard.
  if (javaScriptEnabled) await waitForHydration(page);
  await skipWelcome(page);

  // A second device with the same session cookie.
  const other = await browser.newContext({
    javaScriptEnabled,
    userAgent: BROWSER_USER_AGENT,
    extraHTTPHeaders: forwardedFor(),
    storageState: await page.context().storageState(),
  });
  consoleGuard.watch(other);
  const tab = await other.newPage();
  await tab.goto("/account/home");
  await expect(tab).toHaveURL(/\/account\/home$/);

  // "Sign out everywhere" is on the profile page, with the account's security.
  await page.goto("/account/profile");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: t("en", "pages:logout.everywhere") }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page)).toContainText(t("en", "toast.signedOutEverywhere.title"));
  await tab.goto("/account/home");
  await expect(tab).toHaveURL(/\/form$/);
  await other.close();
});
