/**
 * Two production server processes on one PostgreSQL server of their own (it is stopped and started again here), as
 * behind a load balancer: Stripe delivers each webhook to one instance only, and the campaign page every instance
 * keeps in memory must show the new totals within seconds, not after its hour in memory. While the database is away
 * the kept pages keep answering; once it is back, what one instance learns reaches the other again.
 *
 * Needs `npm run build` (the test script builds first) and Debian's PostgreSQL.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPostgres, type PostgresServer } from "../../scripts/support/postgres.ts";
import { textOf } from "../support/app.ts";
import { fakeStripeEnv, startFakeStripe, type FakeStripe } from "../support/fake-stripe.ts";
import { BROWSER_USER_AGENT, startServer, type ServerProcess } from "../support/server-process.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** What "within seconds" means here: the other instance's kept page shows the change this soon. */
const SPREAD_MS = 5_000;

async function campaignPage(server: ServerProcess) {
  const response = await fetch(`${server.baseUrl}/crowdfunding-campaign`, {
    headers: { "User-Agent": BROWSER_USER_AGENT, Accept: "text/html", "Accept-Encoding": "identity" },
    signal: AbortSignal.timeout(5_000),
  });
  return {
    status: response.status,
    cacheControl: response.headers.get("Cache-Control"),
    text: textOf(await response.text()),
  };
}

/** Polls an instance's campaign page until it shows `expected`; resolves with how long that took. */
async function shownWithin(server: ServerProcess, expected: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let last = "";
  while (Date.now() - started <= timeoutMs) {
    const page = await campaignPage(server);
    last = page.text;
    if (page.status === 200 && page.text.includes(expected)) return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`${server.baseUrl} did not show "${expected}" within ${timeoutMs} ms; it shows: ${last}`);
}

async function healthy(server: ServerProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${server.baseUrl}/readyz`, { signal: AbortSignal.timeout(3_000) }).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${server.baseUrl}/readyz did not answer 200 within ${timeoutMs} ms`);
    await sleep(100);
  }
}

describe("the campaign page kept by two instances on one PostgreSQL", () => {
  let postgres: PostgresServer | undefined;
  let stripe: FakeStripe | undefined;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;
  const paymentIntents: string[] = [];

  beforeAll(async () => {
    postgres = await startPostgres();
    const databaseUrl = await postgres.createDatabase("campaign_two_instances");
    stripe = await startFakeStripe();
    const env = { DATABASE_URL: databaseUrl, ...fakeStripeEnv(stripe.url) };
    // One after the other: the first applies the migrations.
    a = await startServer({ env });
    b = await startServer({ env });
  }, 90_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await stripe?.close();
    await postgres?.stop();
  });

  /** A paid pledge, delivered (signed) to one instance only, as Stripe delivers each event once. */
  async function pledge(server: ServerProcess, amount: number): Promise<number> {
    const paymentIntent = `pi_test_${randomBytes(8).toString("hex")}`;
    paymentIntents.push(paymentIntent);
    const { payload, signature } = stripe!.event("checkout.session.completed", {
      id: `cs_test_${randomBytes(8).toString("hex")}`,
      object: "checkout.session",
      mode: "payment",
      status: "complete",
      payment_status: "paid",
      client_reference_id: null,
      customer_details: { email: `backer.${paymentIntents.length}@example.test` },
      amount_total: amount,
      currency: "eur",
      payment_intent: paymentIntent,
      metadata: { kind: "pledge" },
    });
    return deliver(server, payload, signature);
  }

  async function deliver(server: ServerProcess, payload: string, signature: string): Promise<number> {
    const response = await fetch(`${server.baseUrl}/webhooks/stripe`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": signature, "User-Agent": "Stripe/1.0" },
      body: payload,
    });
    await response.body?.cancel();
    return response.status;
  }

  it("keeps the campaign page in memory on both instances", async () => {
    for (const server of [a!, b!]) {
      for (let i = 0; i < 2; i++) {
        const page = await campaignPage(server);
        expect(page.status).toBe(200);
        expect(page.cacheControl).toBe("public, max-age=0, must-revalidate");
        expect(page.text).toContain("€0.00 pledged of €5,000.00");
      }
    }
  });

  it("a pledge delivered to A shows on B's kept page within seconds", async () => {
    expect(await pledge(a!, 2_500)).toBe(200);
    expect((await campaignPage(a!)).text).toContain("€25.00 pledged of €5,000.00");
    const ms = await shownWithin(b!, "€25.00 pledged of €5,000.00", SPREAD_MS);
    console.info(`the pledge reached B's kept page after ${ms} ms`);
  });

  it("a refund delivered to B lowers the total on A's kept page within seconds", async () => {
    const { payload, signature } = stripe!.event("charge.refunded", {
      id: `ch_test_${randomBytes(8).toString("hex")}`,
      object: "charge",
      payment_intent: paymentIntents[0],
      amount_refunded: 1_000,
    });
    expect(await deliver(b!, payload, signature)).toBe(200);
    expect((await campaignPage(b!)).text).toContain("€15.00 pledged of €5,000.00");
    await shownWithin(a!, "€15.00 pledged of €5,000.00", SPREAD_MS);
  });

  it("the instance that received a webhook does not forget the pages it drew since, at its next check", async () => {
    // Longer than a check: each instance has read the version moved by the pledge (sent to A) and the refund (to B).
    await sleep(3_000);
    const forgot = (server: ServerProcess) =>
      server.logs().filter((line) => line.json?.message === "public data changed: kept public pages are drawn again")
        .length;
    // Each forgot its pages once, for the change the other one received.
    expect({ a: forgot(a!), b: forgot(b!) }).toEqual({ a: 1, b: 1 });
  });

  it(
    "keeps answering the kept pages while PostgreSQL is away, and spreads changes again once it is back",
    { timeout: 90_000 },
    async () => {
      const failedChecks = (server: ServerProcess) =>
        server
          .logs()
          .filter((line) => line.json?.message === "shared data check failed; kept pages are answered meanwhile")
          .length;
      const before = [a!, b!].map(failedChecks);
      await postgres!.halt();
      try {
        // Until both instances found the database gone while checking for changes.
        await vi.waitFor(() => expect([a!, b!].map(failedChecks)).toEqual(before.map((count) => count + 1)), {
          timeout: 15_000,
          interval: 100,
        });
        for (const server of [a!, b!]) {
          const page = await campaignPage(server);
          expect(page.status).toBe(200);
          expect(page.text).toContain("€15.00 pledged of €5,000.00");
        }
      } finally {
        await postgres!.resume();
      }
      await Promise.all([healthy(a!, 30_000), healthy(b!, 30_000)]);
      expect(await pledge(b!, 5_000)).toBe(200);
      await shownWithin(a!, "€65.00 pledged of €5,000.00", SPREAD_MS);
      expect((await campaignPage(b!)).text).toContain("€65.00 pledged of €5,000.00");
    },
  );

  it("logs no error on either instance", () => {
    const errors = [...a!.logs(), ...b!.logs()].filter(
      (line) => line.stream === "stderr" || line.json?.level === "error",
    );
    expect(errors.map((line) => line.text)).toEqual([]);
  });
});
