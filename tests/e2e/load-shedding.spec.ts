import { holdRequests } from "../support/held-requests";
import { startServer, type ServerProcess } from "../support/server-process";
import { expect, test, waitForHydration } from "./support";

/**
 * A busy server refuses a page's data with 503 and Retry-After (load shedding); the browser sends it again after that
 * time and the navigation ends on its page instead of an error. A server of its own, allowing one request in flight,
 * which the test keeps busy with a request whose body never comes.
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
  const held = await holdRequests(server.port, 1, async () => (await fetch(`${server!.baseUrl}${href}.data`)).status);
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
