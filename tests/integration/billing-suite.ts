/**
 * Subscriptions and the crowdfunding campaign through the production build, with the `stripe` client pointed at a
 * protocol-level fake of Stripe's API (tests/support/fake-stripe.ts: Stripe cannot run here) and webhook events signed
 * with the library's own test-header helper. The anonymous pages are also read through the public page cache, as
 * server.ts mounts it, so a recorded payment must show on the cached campaign page.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import { sql } from "drizzle-orm";
import express from "express";
import { Stripe } from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_UA, signedInBrowser, startApp, textOf, toastsIn } from "../support/app";
import { fakeStripeEnv, startFakeStripe, WEBHOOK_SECRET, type FakeStripe } from "../support/fake-stripe";
import { startMailSink } from "../support/mail-sink";

type App = Awaited<ReturnType<typeof startApp>>;
type Browser = Awaited<ReturnType<typeof signedInBrowser>>;
type Entry = {
  publicPageCache: (build: unknown) => express.RequestHandler;
  createLoadContext: (ip: string | null) => unknown;
};

const DAY = 86_400;
const seconds = () => Math.floor(Date.now() / 1000);

export function defineBillingSuite(databaseName: string, databaseEnv: () => Promise<Record<string, string>>) {
  describe(`subscriptions and the campaign on ${databaseName}`, () => {
    let app: App;
    let mail: Awaited<ReturnType<typeof startMailSink>>;
    let stripe: FakeStripe;
    let cached: Server | undefined;
    let base: string;
    let alice: Browser;
    let bob: Browser;
    let carol: Browser;
    const webhookHits: { status: number }[] = [];

    /** The app's webhook endpoint, as Stripe's servers call it: JSON, no cookies, no Origin. */
    async function postWebhook(payload: string, signature: string | null): Promise<Response> {
      const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": "Stripe/1.0" };
      if (signature !== null) headers["Stripe-Signature"] = signature;
      const response = await app
        .browser("203.0.113.50")
        .request("/webhooks/stripe", { method: "POST", headers, body: payload });
      webhookHits.push({ status: response.status });
      return response;
    }

    beforeAll(async () => {
      mail = await startMailSink();
      stripe = await startFakeStripe({
        deliver: async (payload, signature) => (await postWebhook(payload, signature)).status,
      });
      app = await startApp({ ...(await databaseEnv()), SMTP_URL: mail.url, ...fakeStripeEnv(stripe.url) });
      const build = await import(path.resolve(import.meta.dirname, "../../build/server/index.js"));
      const entry = (build.entry.module as { appServer: Entry }).appServer;
      const web = express();
      web.use(entry.publicPageCache(build));
      web.all(
        "/{*splat}",
        createRequestHandler({ build, getLoadContext: () => entry.createLoadContext("203.0.113.9") as never }),
      );
      cached = web.listen(0, "127.0.0.1");
      await new Promise((resolve) => cached!.once("listening", resolve));
      base = `http://127.0.0.1:${(cached.address() as AddressInfo).port}`;
      alice = await signedInBrowser(app, mail, "alice.billing@example.com");
      bob = await signedInBrowser(app, mail, "bob.billing@example.com");
      carol = await signedInBrowser(app, mail, "carol.billing@example.com");
    });
    afterAll(async () => {
      await new Promise((resolve) => (cached ? cached.close(resolve) : resolve(undefined)));
      await app?.stop();
      await stripe?.close();
      await mail?.close();
    });

    const anonymousPage = async (pathname: string) =>
      (await fetch(base + pathname, { headers: { "User-Agent": BROWSER_UA, "Accept-Encoding": "identity" } })).text();
    const userIdOf = async (email: string) =>
      (await app.db.execute(sql`select id from users where email = ${email}`)).rows[0]!.id as string;
    const billingText = async (browser: Browser) => textOf((await browser.page("/account/billing")).html);

    /** Chooses the plan as the form does and pays on the fake hosted page; returns the Checkout Session. */
    async function subscribe(browser: Browser, period = "monthly", pathname = "/subscription") {
      const response = await browser.request(pathname, { method: "POST", form: { plan: "supporter", period } });
      expect(response.status).toBe(303);
      const location = response.headers.get("Location")!;
      expect(location.startsWith(`${stripe.url}/checkout/cs_test_`)).toBe(true);
      const sessionId = location.split("/").at(-1)!;
      return { sessionId, session: stripe.sessions.get(sessionId)! };
    }

    it("sends a signed-out visitor through sign-in and back to the plans", async () => {
      const visitor = app.browser();
      const response = await visitor.request("/de/subscription", {
        method: "POST",
        form: { plan: "supporter", period: "monthly" },
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/de/form");
      expect(visitor.jar.has("redirect-to")).toBe(true);
      expect(toastsIn((await visitor.page("/de/form")).html)[0]?.[0]).toBe("Zuerst anmelden");
    });

    it("prints only configured prices, in the interface locale, and only benefits that exist", async () => {
      const en = textOf(await anonymousPage("/subscription"));
      expect(en).toContain("€4.00 per month");
      expect(en).toContain("or €40.00 per year");
      expect(en).toContain("A Supporter badge on your account");
      expect(en).not.toMatch(/Classroom|class lists/i);
      // The player and the offline review ship with the free plan.
      expect(en).toContain("The audio player");
      expect(en).toContain("also offline");
      const de = textOf(await anonymousPage("/de/subscription"));
      expect(de).toContain("4,00 € pro Monat");
    });

    it("subscribes: Checkout in subscription mode for the learner, webhooks record the plan, post-purchase shows it", async () => {
      const { sessionId } = await subscribe(alice, "monthly", "/de/subscription");
      const created = stripe.requests.find((r) => r.path === "/v1/checkout/sessions")!.body;
      expect(created).toMatchObject({
        mode: "subscription",
        client_reference_id: await userIdOf("alice.billing@example.com"),
        customer_email: "alice.billing@example.com",
        success_url: "http://localhost:3999/de/subscription/post-purchase?session_id={CHECKOUT_SESSION_ID}",
        cancel_url: "http://localhost:3999/de/subscription",
        line_items: [{ price: "price_supporter_monthly", quantity: "1" }],
      });
      // Before payment the return page says so and the account shows nothing yet.
      expect(textOf((await alice.page(`/subscription/post-purchase?session_id=${sessionId}`)).html)).toContain(
        "Payment still processing",
      );
      await stripe.pay(sessionId);
      expect(stripe.deliveries.map((d) => d.status)).toEqual([200, 200, 200]);
      const { response, html } = await alice.page(`/subscription/post-purchase?session_id=${sessionId}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toContain("no-store");
      const text = textOf(html);
      expect(text).toContain("Your Supporter plan is paid: €4.00 per month.");
      expect(text).toMatch(/Next renewal: \w+ \d{1,2}, \d{4}\./);
      expect(await billingText(alice)).toContain("Your plan: Supporter (active) Supporter");
      expect(textOf((await alice.page("/account/profile")).html)).toContain("Your plan: Supporter (active)");
    });

    it("keeps the plan in the database (so it survives a restart), not in the process", async () => {
      const rows = (await app.db.execute(sql`select status, plan, period from subscriptions`)).rows;
      expect(rows).toContainEqual({ status: "active", plan: "supporter", period: "monthly" });
    });

    it("shows another learner's session as not theirs (403), and an unknown one as not found (404)", async () => {
      const { sessionId } = await subscribe(carol);
      const other = await bob.page(`/subscription/post-purchase?session_id=${sessionId}`);
      expect(other.response.status).toBe(403);
      expect(textOf(other.html)).toContain("This payment is not yours");
      expect(textOf(other.html)).not.toContain("carol.billing");
      const unknown = await bob.page("/subscription/post-purchase?session_id=cs_test_doesnotexist");
      expect(unknown.response.status).toBe(404);
      expect(textOf(unknown.html)).toContain("No payment found");
    });

    it("refuses a second plan while one is active and sends the learner to billing", async () => {
      const response = await alice.request("/subscription", {
        method: "POST",
        form: { plan: "supporter", period: "yearly" },
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/account/billing");
    });

    it("refuses a forged or missing signature with 400 and changes nothing", async () => {
      const before = (await app.db.execute(sql`select count(*)::int as n from stripe_events`)).rows[0]!.n;
      const subscription = [...stripe.subscriptions.values()][0]!;
      const { payload } = stripe.event("customer.subscription.deleted", { ...subscription, status: "canceled" });
      const forged = `t=${seconds()},v1=${"0".repeat(64)}`;
      expect((await postWebhook(payload, forged)).status).toBe(400);
      expect((await postWebhook(payload, null)).status).toBe(400);
      const other = stripe.event("customer.subscription.deleted", { ...subscription, status: "canceled" });
      expect((await postWebhook(payload.replace("canceled", "active"), other.signature)).status).toBe(400);
      expect((await app.db.execute(sql`select count(*)::int as n from stripe_events`)).rows[0]!.n).toBe(before);
      expect(await billingText(alice)).toContain("(active)");
    });

    it("answers a validly signed body of the wrong shape with 400 and changes nothing", async () => {
      const count = async () => (await app.db.execute(sql`select count(*)::int as n from stripe_events`)).rows[0]!.n;
      const before = await count();
      const billingBefore = await billingText(alice);
      const campaignBefore = textOf(await anonymousPage("/crowdfunding-campaign"));
      const envelope = { id: "evt_shape", object: "event", created: seconds(), type: "checkout.session.completed" };
      const bodies = [
        "[]",
        "{}",
        "null",
        '{"type":1}',
        "1",
        '"event"',
        JSON.stringify({ ...envelope, data: null }),
        JSON.stringify({ ...envelope, data: {} }),
        JSON.stringify({ ...envelope, data: { object: [] } }),
        JSON.stringify({ ...envelope, id: 7, data: { object: {} } }),
        JSON.stringify({ ...envelope, id: "", data: { object: {} } }),
        JSON.stringify({ ...envelope, created: "yesterday", data: { object: {} } }),
        JSON.stringify({ ...envelope, created: 1e300, data: { object: {} } }),
        JSON.stringify({ ...envelope, type: ["invoice.paid"], data: { object: {} } }),
        // The right envelope around an object whose fields have the wrong types.
        JSON.stringify({
          ...envelope,
          id: "evt_shape_pledge",
          data: {
            object: {
              id: 42,
              mode: "payment",
              payment_status: "paid",
              metadata: { kind: "pledge" },
              customer_details: { email: ["x@example.com"] },
              amount_total: 1e300,
              currency: { code: "eur" },
              payment_intent: { id: 5 },
            },
          },
        }),
        JSON.stringify({
          ...envelope,
          id: "evt_shape_refund",
          type: "charge.refunded",
          data: { object: { payment_intent: "pi_x", amount_refunded: -1e300 } },
        }),
        JSON.stringify({
          ...envelope,
          id: "evt_shape_subscription",
          type: "customer.subscription.updated",
          data: { object: { id: ["sub"], customer: "cus_x", status: 3, metadata: "plan", items: { data: "x" } } },
        }),
      ];
      for (const payload of bodies) {
        const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
        const response = await postWebhook(payload, signature);
        expect({ payload, status: response.status }).toEqual({ payload, status: 400 });
        expect(await response.json()).toEqual({ error: "not a Stripe event" });
      }
      expect(await count()).toBe(before);
      expect(await billingText(alice)).toBe(billingBefore);
      expect(textOf(await anonymousPage("/crowdfunding-campaign"))).toBe(campaignBefore);
    });

    it("renews on invoice.paid, notices a failed payment, and a replayed event changes nothing", async () => {
      const subscription = [...stripe.subscriptions.values()].find(
        (s) => s.customer === stripe.sessions.get([...stripe.sessions.keys()][0]!)!.customer,
      )!;
      const failed = stripe.event("invoice.payment_failed", stripe.invoiceObject(subscription, seconds() + 30 * DAY));
      expect((await postWebhook(failed.payload, failed.signature)).status).toBe(200);
      const failing = await billingText(alice);
      expect(failing).toContain("Your last payment failed.");
      expect(failing).toContain("(payment overdue)");

      const renewedUntil = seconds() + 60 * DAY;
      expect(await stripe.send("invoice.paid", stripe.invoiceObject(subscription, renewedUntil))).toBe(200);
      const renewed = await billingText(alice);
      expect(renewed).not.toContain("Your last payment failed.");
      const day = new Intl.DateTimeFormat("en", { dateStyle: "long", timeZone: "UTC" }).format(renewedUntil * 1000);
      expect(renewed).toContain(`Renews on ${day}: €4.00 per month.`);

      // The same delivery again (Stripe retries): recorded once, so the failure does not come back.
      const replay = await postWebhook(failed.payload, failed.signature);
      expect(replay.status).toBe(200);
      expect(await replay.json()).toMatchObject({ outcome: "replayed" });
      expect(await billingText(alice)).not.toContain("Your last payment failed.");
    });

    it("cancels at period end, ends on deletion, and a late older event does not bring the plan back", async () => {
      const subscriptionId = (
        await app.db.execute(
          sql`select subscription_id from subscriptions s join users u on u.id = s.user_id where u.email = 'alice.billing@example.com'`,
        )
      ).rows[0]!.subscription_id as string;
      const subscription = stripe.subscriptions.get(subscriptionId)!;
      const t0 = seconds();
      const stale = stripe.event(
        "customer.subscription.updated",
        { ...subscription, cancel_at_period_end: false },
        t0 + 1,
      );
      expect(
        await stripe.send("customer.subscription.updated", { ...subscription, cancel_at_period_end: true }, t0 + 2),
      ).toBe(200);
      const canceling = await billingText(alice);
      expect(canceling).toContain("(cancels at the end of the period)");
      expect(canceling).toMatch(/Your plan ends on \w+ \d{1,2}, \d{4}; nothing more will be charged\./);

      // A renewal invoice paid meanwhile does not undo the cancellation.
      expect(await stripe.send("invoice.paid", stripe.invoiceObject(subscription, seconds() + 90 * DAY), t0 + 2)).toBe(
        200,
      );
      expect(await billingText(alice)).toContain("(cancels at the end of the period)");

      // Out of order: an update created before the one applied arrives late and changes nothing.
      expect((await postWebhook(stale.payload, stale.signature)).status).toBe(200);
      expect(await billingText(alice)).toContain("(cancels at the end of the period)");

      expect(await stripe.send("customer.subscription.deleted", { ...subscription, status: "canceled" }, t0 + 3)).toBe(
        200,
      );
      const ended = await billingText(alice);
      expect(ended).toContain("Your plan: Supporter (ended)");
      expect(ended).not.toContain("Supporter (ended) Supporter");
      const late = { ...subscription, status: "active", cancel_at_period_end: false };
      expect(await stripe.send("customer.subscription.updated", late, t0 + 4)).toBe(200);
      expect(await billingText(alice)).toContain("(ended)");
      expect(textOf((await alice.page("/account/profile")).html)).toContain("Your plan: Free.");
    });

    it("opens the customer portal with a POST for a learner with a Stripe customer", async () => {
      const response = await alice.request("/account/billing", { method: "POST", form: {} });
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toMatch(new RegExp(`^${stripe.url}/portal/bps_test_`));
      const portal = stripe.requests.filter((r) => r.path === "/v1/billing_portal/sessions").at(-1)!.body;
      expect(portal.return_url).toBe("http://localhost:3999/account/billing");
      const none = await bob.request("/account/billing", { method: "POST", form: {} });
      expect(none.status).toBe(302);
      expect(toastsIn((await bob.page("/account/billing")).html)[0]?.[0]).toBe("Nothing to manage");
    });

    it("pledges without an account, counts completed payments on the cached page, and a refund lowers the total", async () => {
      expect(textOf(await anonymousPage("/crowdfunding-campaign"))).toContain("€0.00 pledged of €5,000.00");
      const visitor = app.browser();
      const bad = await visitor.request("/crowdfunding-campaign", {
        method: "POST",
        form: { custom: "0.50", email: "x@example.com" },
      });
      expect(toastsIn((await visitor.page(bad.headers.get("Location")!)).html)[0]?.[1]).toBe(
        "Choose an amount from €1.00 to €1,000.00.",
      );
      const noMail = await visitor.request("/crowdfunding-campaign", {
        method: "POST",
        form: { amount: "2500", email: "nope" },
      });
      expect(toastsIn((await visitor.page(noMail.headers.get("Location")!)).html)[0]?.[0]).toBe(
        "Check the e-mail address",
      );

      const response = await visitor.request("/crowdfunding-campaign", {
        method: "POST",
        form: { amount: "1000", custom: "25", email: "Backer@Example.com" },
      });
      expect(response.status).toBe(303);
      const sessionId = response.headers.get("Location")!.split("/").at(-1)!;
      expect(stripe.sessions.get(sessionId)).toMatchObject({
        mode: "payment",
        amount_total: 2500,
        client_reference_id: null,
      });
      await stripe.pay(sessionId);
      const thanks = await visitor.page(`/crowdfunding-campaign/thank-you?session_id=${sessionId}`);
      expect(thanks.response.status).toBe(200);
      expect(textOf(thanks.html)).toContain("Your pledge of €25.00 is paid.");
      expect(textOf(thanks.html)).toContain("€25.00 pledged of €5,000.00");

      const signedIn = await bob.request("/crowdfunding-campaign", { method: "POST", form: { amount: "5000" } });
      const bobSession = signedIn.headers.get("Location")!.split("/").at(-1)!;
      await stripe.pay(bobSession);
      const page = textOf(await anonymousPage("/crowdfunding-campaign"));
      expect(page).toContain("€75.00 pledged of €5,000.00");
      expect(page).toContain("2 backers");
      expect(page).not.toContain("bob.billing");
      expect(page).not.toContain("backer@example.com");

      const paymentIntent = stripe.sessions.get(sessionId)!.payment_intent as string;
      const refund = {
        id: "ch_test_refund",
        object: "charge",
        payment_intent: paymentIntent,
        amount: 2500,
        amount_refunded: 2500,
        refunded: true,
      };
      expect(await stripe.send("charge.refunded", refund)).toBe(200);
      const after = textOf(await anonymousPage("/crowdfunding-campaign"));
      expect(after).toContain("€50.00 pledged of €5,000.00");
      expect(after).toContain("1 backer");
      // A pledge's thank-you page is its payer's: a signed-in learner's session is not another's.
      const foreign = await carol.page(`/crowdfunding-campaign/thank-you?session_id=${bobSession}`);
      expect(foreign.response.status).toBe(403);
    });

    it("draws the progress bar on the server as an accessible progress element with text", async () => {
      const html = await anonymousPage("/crowdfunding-campaign");
      expect(html).toMatch(/<progress[^>]*value="5000"[^>]*max="500000"[^>]*aria-label="Campaign progress"/);
      expect(textOf(html)).toMatch(/\d+ days left \(until December 31, 2099\)/);
    });

    it("forgets pledges by e-mail address, and deleting a learner removes their plan and pledges", async () => {
      // The function account deletion calls, from the app's billing folder, on the app's own database.
      const { forgetPledgesOf } = await import("../../app/billing/campaign.server");
      const count = async (query: ReturnType<typeof sql>) => (await app.db.execute(query)).rows[0]!.n;
      expect(await count(sql`select count(*)::int as n from pledges where email = 'backer@example.com'`)).toBe(1);
      expect(await forgetPledgesOf(app.db as never, " BACKER@example.com ")).toBe(1);
      expect(await count(sql`select count(*)::int as n from pledges where email = 'backer@example.com'`)).toBe(0);
      await app.db.execute(sql`delete from users where email = 'bob.billing@example.com'`);
      expect(await count(sql`select count(*)::int as n from pledges`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from subscriptions`)).toBe(1);
      await app.db.execute(sql`delete from users where email = 'alice.billing@example.com'`);
      expect(await count(sql`select count(*)::int as n from subscriptions`)).toBe(0);
    });

    it("cancels a paid plan at Stripe when its learner deletes the account", async () => {
      const dave = await signedInBrowser(app, mail, "dave.billing@example.com");
      const { sessionId } = await subscribe(dave, "yearly");
      await stripe.pay(sessionId);
      const subscriptionId = stripe.sessions.get(sessionId)!.subscription as string;
      expect(stripe.subscriptions.get(subscriptionId)!.status).toBe("active");
      const deleted = await dave.request("/account/profile/delete", {
        method: "POST",
        form: { confirmation: "DELETE" },
      });
      expect(deleted.status).toBe(302);
      expect(stripe.subscriptions.get(subscriptionId)!.status).toBe("canceled");
      const rows = await app.db.execute(
        sql`select count(*)::int as n from users where email = 'dave.billing@example.com'`,
      );
      expect(rows.rows[0]!.n).toBe(0);
    });

    it("answers every webhook delivery it could verify with 200", () => {
      expect(webhookHits.filter((hit) => hit.status >= 500)).toEqual([]);
    });
  });
}
