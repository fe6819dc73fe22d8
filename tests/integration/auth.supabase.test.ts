import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APP_URL, startApp, toastsIn } from "../support/app";
import { startFakeSupabaseAuth } from "../support/fake-supabase-auth";

// Supabase Auth cannot run on this machine: the provider talks to a protocol-level fake of its HTTP endpoints.
describe("sign-in through the supabase provider", () => {
  let fake: Awaited<ReturnType<typeof startFakeSupabaseAuth>>;
  let app: Awaited<ReturnType<typeof startApp>>;
  let n = 0;
  const email = (label: string) => `${label}-${n++}@example.com`;

  beforeAll(async () => {
    fake = await startFakeSupabaseAuth();
    app = await startApp({ SUPABASE_URL: fake.url, SUPABASE_ANON_KEY: "test-anon-key" });
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.close();
  });

  it("asks Supabase to send the link, back to /confirm in the visitor's language", async () => {
    const address = email("otp");
    const browser = app.browser();
    await browser.requestSignIn(address, "/uk/form");
    const request = fake.otpRequests.find((r) => r.email === address);
    expect(request?.redirectTo).toBe(`${APP_URL}/uk/confirm`);
    expect(request?.apikey).toBe("test-anon-key");
    expect(toastsIn((await browser.page("/uk/form")).html)).toHaveLength(1);
  });

  it("verifies the token hash on POST /confirm only, then keeps the app's own session", async () => {
    const address = email("verify");
    const browser = app.browser();
    await browser.requestSignIn(address);
    const tokenHash = fake.tokenHashFor(address);
    const confirm = await browser.page(`/confirm?token_hash=${tokenHash}&type=email`);
    expect(confirm.html).toContain(`value="${tokenHash}"`);
    // Supabase tells whom a link signs in only by using it up: the page says so instead of naming an address.
    expect(confirm.html).toContain("The address this link signs in cannot be shown before you confirm.");
    expect(fake.verifyRequests.some((r) => r.tokenHash === tokenHash)).toBe(false);

    const response = await browser.request("/confirm", {
      method: "POST",
      form: { token_hash: tokenHash, type: "email" },
    });
    expect(response.headers.get("Location")).toBe("/account/home");
    expect(fake.verifyRequests.filter((r) => r.tokenHash === tokenHash)).toEqual([{ tokenHash, type: "email" }]);
    expect((await browser.request("/account/home")).status).toBe(200);
    const { rows } = await app.db.execute(sql`select email from users where email = ${address}`);
    expect(rows).toHaveLength(1);

    const reuse = await app
      .browser()
      .request("/confirm", { method: "POST", form: { token_hash: tokenHash, type: "email" } });
    expect(reuse.headers.get("Location")).toBe("/error?reason=expired");
  });

  it("refuses a forged token hash or a wrong type", async () => {
    for (const form of [
      { token_hash: "forged", type: "email" },
      { token_hash: "abc", type: "recovery" },
    ]) {
      const response = await app.browser().request("/confirm", { method: "POST", form });
      expect(response.headers.get("Location")).toMatch(/^\/error\?reason=(invalid|expired)$/);
    }
  });

  it("retries a failing Supabase with backoff, 3 attempts in total", async () => {
    const address = email("retry");
    fake.otpFailures.push(503, 502);
    const browser = app.browser();
    await browser.requestSignIn(address);
    expect(fake.otpFailures).toEqual([]);
    expect(toastsIn((await browser.page("/form")).html)[0]?.[0]).toBe("Check your inbox");
  });

  it("shows the 'Error' toast after three failed attempts, and does not repeat a refused request", async () => {
    fake.otpFailures.push(503, 503, 503, 503);
    const browser = app.browser();
    await browser.requestSignIn(email("down"));
    expect(fake.otpFailures).toEqual([503]);
    expect(toastsIn((await browser.page("/form")).html)).toEqual([
      ["Error", "An error occurred while sending the email."],
    ]);
    fake.otpFailures.length = 0;

    fake.otpFailures.push(422, 422);
    const refused = app.browser();
    await refused.requestSignIn(email("refused"));
    expect(fake.otpFailures).toEqual([422]);
    expect(toastsIn((await refused.page("/form")).html)[0]?.[0]).toBe("Error");
    fake.otpFailures.length = 0;
  });
});
