import { holdRequests } from "../support/held-requests";
import { signInThroughLog } from "../support/raw-http";
import { startServer, type ServerProcess } from "../support/server-process";
import { expect, test, waitForHydration } from "./support";

/**
 * A busy server refuses a page's data with 503 and Retry-After (load shedding); the browser sends it again after that
 * time and the navigation ends on its page instead of an error. A server of its own, allowing one request in flight,
 * which the test keeps busy with an upload whose body never comes.
 */
let server: ServerProcess | undefined;

test.afterAll(async () => {
  await server?.stop();
});

test("a page's data refused with 503 while the server is busy is fetched again after Retry-After", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript a refused page reloads itself (tests/integration/load-shedding)");
  test.setTimeout(120_000);
  server ??= await startServer({ env: { MAX_REQUESTS_IN_FLIGHT: "1" }, healthTimeoutMs: 90_000 });
  // Signed in before the page opens: the page's own requests after hydration (route discovery, the service worker)
  // would otherwise take the one place in flight from the sign-in's.
  const { cookie } = await signInThroughLog(server, "held@example.test");
  await page.goto(`${server.baseUrl}/texts`);
  await waitForHydration(page);
  const link = page.locator("main a[href^='/texts/']").first();
  const href = (await link.getAttribute("href"))!;

  const answers: number[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname === `${href}.data`) answers.push(response.status());
  });
  // The browser reports the refused request as a failed resource; that is expected here.
  consoleGuard.allow(/^console\.error: Failed to load resource: the server responded with a status of 503/);
  const held = await holdRequests(
    server.port,
    1,
    async () => (await fetch(`${server!.baseUrl}${href}.data`)).status,
    cookie,
  );
  try {
    await link.click();
    await expect.poll(() => answers[0], { timeout: 10_000 }).toBe(503);
  } finally {
    // The server is free again before the client's retry, 2 s later.
    held.release();
  }
  await expect(page).toHaveURL(new RegExp(`${href}$`), { timeout: 15_000 });
  await expect(page.locator("h1")).not.toHaveText("");
  await expect(page.locator("main")).not.toContainText("503");
  expect(answers).toEqual([503, 200]);
});

/**
 * The same retry on the usual test server, the refusal made by the browser's network layer: the first answer for the
 * page's data is a 503 with Retry-After: 1, the next ones come from the server.
 */
test("a page's data answered 503 with Retry-After: 1 is fetched again a second later, and the page shows", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript a refused page reloads itself (tests/integration/load-shedding)");
  await page.goto("/texts");
  await waitForHydration(page);
  const link = page.locator("main a[href^='/texts/']").first();
  const href = (await link.getAttribute("href"))!;
  const answers: { status: number; at: number }[] = [];
  await page.route(
    (url) => url.pathname === `${href}.data`,
    async (route) => {
      if (answers.length === 0) {
        answers.push({ status: 503, at: Date.now() });
        await route.fulfill({ status: 503, headers: { "Retry-After": "1" }, contentType: "text/plain", body: "busy" });
        return;
      }
      const response = await route.fetch();
      answers.push({ status: response.status(), at: Date.now() });
      await route.fulfill({ response });
    },
  );
  consoleGuard.allow(/^console\.error: Failed to load resource: the server responded with a status of 503/);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`), { timeout: 10_000 });
  await expect(page.locator("h1")).not.toHaveText("");
  await expect(page.locator("main")).not.toContainText("503");
  expect(answers.map((answer) => answer.status)).toEqual([503, 200]);
  // Sent again after the second asked for, not at once.
  expect(answers[1]!.at - answers[0]!.at).toBeGreaterThanOrEqual(900);
});

test("a page's data still refused after three retries shows the error page, not an endless wait", async ({
  page,
  javaScriptEnabled,
  consoleGuard,
}) => {
  test.skip(!javaScriptEnabled, "without JavaScript a refused page reloads itself (tests/integration/load-shedding)");
  await page.goto("/texts");
  await waitForHydration(page);
  const link = page.locator("main a[href^='/texts/']").first();
  const href = (await link.getAttribute("href"))!;
  let refusals = 0;
  await page.route(
    (url) => url.pathname === `${href}.data`,
    async (route) => {
      refusals++;
      await route.fulfill({ status: 503, headers: { "Retry-After": "1" }, contentType: "text/plain", body: "busy" });
    },
  );
  consoleGuard.allow(/503/);
  await link.click();
  await expect(page.locator("main")).toContainText("503", { timeout: 10_000 });
  // The first request and three retries.
  expect(refusals).toBe(4);
});
