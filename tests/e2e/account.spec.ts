import type { Page } from "@playwright/test";
import { forwardedFor, mailFor } from "./mail";
import { expect, signInFresh, t, test, waitForHydration, openAccountMenu } from "./support";

test.use({ extraHTTPHeaders: forwardedFor() });

const signIn = (page: Page, javaScriptEnabled: boolean) => signInFresh(page, javaScriptEnabled, "account");

/** The newest mail to an address once it has this subject. */
async function mailWithSubject(address: string, subject: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mail = await mailFor(address);
    if (mail.subject === subject) return mail;
    if (Date.now() > deadline) throw new Error(`no mail "${subject}" for ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("the profile shows the address, this device and the data export; ending this session signs out", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = await signIn(page, javaScriptEnabled);
  await openAccountMenu(page, "en");
  await page
    .getByRole("link", { name: t("en", "nav.profile") })
    .first()
    .click();
  await expect(page).toHaveURL(/\/account\/profile$/);
  await expect(page.locator("main h1")).toHaveText(t("en", "titles.profile"));
  await expect(page.locator("main")).toContainText(email);
  const device = page.locator(".session-list li");
  await expect(device).toHaveCount(1);
  await expect(device).toContainText("Chrome on Linux (this device)");
  await expect(page.getByRole("link", { name: t("en", "account:profile.exportJson") })).toHaveAttribute(
    "href",
    "/account/export?format=json",
  );
  await expect(page.getByRole("link", { name: t("en", "account:profile.exportCsv") })).toHaveAttribute(
    "href",
    "/account/export?format=csv",
  );
  await device.getByRole("button", { name: /Sign out/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(page.getByRole("status")).toContainText(t("en", "toast.sessionEnded.title"));
  await page.goto("/account/profile");
  await expect(page).toHaveURL(/\/form$/);
});

test("deleting the account asks for the typed word, then deletes, e-mails and signs out (German)", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  // The wrong word is answered 400, which the browser reports in its console.
  consoleGuard.allow(/status of 400 \(Bad Request\) \(http:\/\/[^)]+\/de\/account\/profile\/delete(\.data)?\)/);
  const email = await signIn(page, javaScriptEnabled);
  await page.goto("/de/account/profile");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("link", { name: t("de", "account:profile.deleteStart") }).click();
  await expect(page).toHaveURL(/\/de\/account\/profile\/delete$/);
  await expect(page.locator("main")).toContainText(email);
  const word = t("de", "account:profile.delete.word");
  const field = page.getByLabel(t("de", "account:profile.delete.label", { word }));
  const submit = page.getByRole("button", { name: t("de", "account:profile.delete.submit") });
  await field.fill("DELETE");
  await submit.click();
  await expect(page.locator(".field-error")).toHaveText(t("de", "account:profile.delete.wrongWord", { word }));
  await expect(field).toHaveAttribute("aria-invalid", "true");

  await field.fill(word.toLowerCase());
  await submit.click();
  await expect(page).toHaveURL((url) => url.pathname === "/de");
  await expect(page.getByRole("status")).toContainText(t("de", "toast.accountDeleted.title"));
  const mail = await mailWithSubject(email, t("de", "mail:deleted.subject"));
  expect(mail.text).toContain(t("de", "mail:deleted.body"));
  await page.goto("/de/account/profile");
  await expect(page).toHaveURL(/\/de\/form$/);
});
