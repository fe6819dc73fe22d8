import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Stripe } from "stripe";

/**
 * A protocol-level fake of the few Stripe API endpoints the app calls (Checkout Sessions, Billing Portal Sessions,
 * Subscriptions, Customers), plus a stand-in for Stripe's hosted Checkout and portal pages. Stripe itself cannot run
 * here (no network), so this fake speaks its HTTP protocol on loopback: form-encoded requests with bracketed keys,
 * JSON answers shaped like Stripe's objects, and webhook events signed with the `stripe` library's own test-header
 * helper. It is not our code path, only the service on the other end.
 */

export const FAKE_PRICES: Record<string, { unit_amount: number; currency: string; interval: "month" | "year" }> = {
  price_supporter_monthly: { unit_amount: 400, currency: "eur", interval: "month" },
  price_supporter_yearly: { unit_amount: 4000, currency: "eur", interval: "year" },
};
export const WEBHOOK_SECRET = "whsec_fake_0123456789abcdef";

/** The billing variables that point the app at this fake. */
export function fakeStripeEnv(url: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_fake",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: url,
    STRIPE_PRICE_SUPPORTER_MONTHLY: "price_supporter_monthly",
    STRIPE_PRICE_SUPPORTER_YEARLY: "price_supporter_yearly",
    SUPPORTER_MONTHLY_AMOUNT: "400",
    SUPPORTER_YEARLY_AMOUNT: "4000",
    BILLING_CURRENCY: "eur",
    CAMPAIGN_GOAL_AMOUNT: "500000",
    CAMPAIGN_ENDS_AT: "2099-12-31",
  };
}

type Obj = Record<string, unknown>;
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=1` as Stripe's clients encode nested parameters, back into objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Obj = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) {
        if (part === "" && Array.isArray(node)) (node as unknown[]).push(value);
        else node[part] = value;
        return;
      }
      const nextIsIndex = /^\d*$/.test(path[index + 1]!);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Obj;
    });
  }
  return root;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => resolve(body));
  });

/** Delivers a signed event; returns the HTTP status the app answered. The default posts to `webhookUrl`. */
export type Deliver = (payload: string, signature: string) => Promise<number>;

export async function startFakeStripe(options: { webhookUrl?: string; deliver?: Deliver } = {}) {
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const customers = new Map<string, Obj>();
  const portalSessions = new Map<string, Obj>();
  const requests: { method: string; path: string; body: Obj }[] = [];
  const deliveries: { type: string; status: number }[] = [];
  let origin = "";

  const deliver: Deliver =
    options.deliver ??
    (async (payload, signature) => {
      const response = await fetch(options.webhookUrl!, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
        body: payload,
      });
      return response.status;
    });

  /** A signed event as Stripe sends it; `created` defaults to now (seconds). */
  function event(type: string, object: Obj, created = now()) {
    const payload = JSON.stringify({
      id: id("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    });
    return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
  }

  async function send(type: string, object: Obj, created?: number): Promise<number> {
    const { payload, signature } = event(type, object, created);
    const status = await deliver(payload, signature);
    deliveries.push({ type, status });
    return status;
  }

  function subscriptionObject(customer: string, price: string, metadata: Obj, periodEnd: number): Obj {
    const details = FAKE_PRICES[price]!;
    return {
      id: id("sub"),
      object: "subscription",
      customer,
      status: "active",
      cancel_at_period_end: false,
      metadata,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            current_period_start: now(),
            current_period_end: periodEnd,
            price: { id: price, object: "price", unit_amount: details.unit_amount, currency: details.currency },
          },
        ],
      },
    };
  }

  /** An invoice of a subscription, as invoice.paid and invoice.payment_failed carry it. */
  function invoiceObject(subscription: Obj, periodEnd: number): Obj {
    return {
      id: id("in"),
      object: "invoice",
      customer: subscription.customer,
      parent: { type: "subscription_details", subscription_details: { subscription: subscription.id } },
      lines: { object: "list", data: [{ period: { start: now(), end: periodEnd } }] },
    };
  }

  /** What Stripe does when the hosted page is paid: the session completes and the events go out. */
  async function pay(session: Obj): Promise<void> {
    const email = String(session.customer_email ?? "payer@example.com");
    const customer = (session.customer as string | null) ?? id("cus");
    customers.set(customer, { id: customer, object: "customer", email });
    Object.assign(session, {
      status: "complete",
      payment_status: "paid",
      customer,
      customer_details: { email },
    });
    if (session.mode === "subscription") {
      const price = ((session.line_items as Obj[])[0] as Obj).price as string;
      const subscriptionMetadata = ((session.subscription_data as Obj | undefined)?.metadata ?? {}) as Obj;
      const periodEnd = now() + (FAKE_PRICES[price]!.interval === "year" ? 365 : 30) * 86_400;
      const subscription = subscriptionObject(customer, price, subscriptionMetadata, periodEnd);
      subscriptions.set(subscription.id as string, subscription);
      session.subscription = subscription.id;
      await send("checkout.session.completed", session);
      await send("customer.subscription.created", subscription);
      await send("invoice.paid", invoiceObject(subscription, periodEnd));
    } else {
      session.payment_intent = id("pi");
      await send("checkout.session.completed", session);
    }
  }

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req") });
    res.end(JSON.stringify(body));
  };
  const html = (res: ServerResponse, body: string) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Fake Stripe</title></head><body>${body}</body></html>`,
    );
  };
  const missing = (res: ServerResponse, what: string) =>
    json(res, 404, { error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}` } });

  function createSession(body: Obj): Obj {
    const lineItems = (body.line_items ?? []) as Obj[];
    const first = lineItems[0] ?? {};
    const priceData = first.price_data as { currency?: string; unit_amount?: string } | undefined;
    const price = FAKE_PRICES[String(first.price)];
    const session: Obj = {
      id: id("cs"),
      object: "checkout.session",
      mode: body.mode,
      status: "open",
      payment_status: "unpaid",
      client_reference_id: body.client_reference_id ?? null,
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      customer_details: null,
      subscription: null,
      payment_intent: null,
      amount_total: price ? price.unit_amount : Number(priceData?.unit_amount ?? 0),
      currency: price ? price.currency : (priceData?.currency ?? "eur"),
      metadata: body.metadata ?? {},
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      line_items: lineItems,
      subscription_data: body.subscription_data,
    };
    session.url = `${origin}/checkout/${session.id}`;
    sessions.set(session.id as string, session);
    return session;
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const raw = await readBody(req);
    const body = req.method === "POST" ? parseStripeForm(raw) : parseStripeForm(url.search.slice(1));
    const path = url.pathname;
    if (path.startsWith("/v1/")) requests.push({ method: req.method ?? "GET", path, body });
    let match: RegExpMatchArray | null;

    if (req.method === "POST" && path === "/v1/checkout/sessions") return json(res, 200, createSession(body));
    if (req.method === "GET" && (match = path.match(/^\/v1\/checkout\/sessions\/([\w]+)$/))) {
      const session = sessions.get(match[1]!);
      if (!session) return missing(res, "checkout.session");
      const expand = (body.expand ?? []) as string[];
      const subscription = session.subscription ? subscriptions.get(session.subscription as string) : null;
      const { line_items: _items, subscription_data: _data, ...shown } = session;
      return json(res, 200, {
        ...shown,
        subscription: expand.includes("subscription") ? subscription : session.subscription,
      });
    }
    if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
      if (!customers.has(String(body.customer))) return missing(res, "customer");
      const portal = {
        id: id("bps"),
        object: "billing_portal.session",
        customer: body.customer,
        return_url: body.return_url,
      };
      const shown = { ...portal, url: `${origin}/portal/${portal.id}` };
      portalSessions.set(portal.id, shown);
      return json(res, 200, shown);
    }
    if (req.method === "GET" && (match = path.match(/^\/v1\/subscriptions\/([\w]+)$/))) {
      const subscription = subscriptions.get(match[1]!);
      return subscription ? json(res, 200, subscription) : missing(res, "subscription");
    }
    if (req.method === "DELETE" && (match = path.match(/^\/v1\/subscriptions\/([\w]+)$/))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription) return missing(res, "subscription");
      Object.assign(subscription, { status: "canceled", canceled_at: now() });
      return json(res, 200, subscription);
    }
    if (req.method === "GET" && (match = path.match(/^\/v1\/customers\/([\w]+)$/))) {
      const customer = customers.get(match[1]!);
      return customer ? json(res, 200, customer) : missing(res, "customer");
    }

    // The hosted pages a browser visits.
    if ((match = path.match(/^\/checkout\/([\w]+)(\/pay)?$/))) {
      const session = sessions.get(match[1]!);
      if (!session) {
        res.writeHead(404).end("no such checkout session");
        return;
      }
      if (req.method === "POST" && match[2]) {
        if (session.status === "open") await pay(session);
        const target = String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id as string);
        res.writeHead(303, { Location: target }).end();
        return;
      }
      const amount = `${(Number(session.amount_total) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
      return html(
        res,
        `<main><h1>Fake Stripe Checkout</h1><p>Pay ${amount}</p>` +
          `<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Pay</button></form>` +
          `<p><a href="${session.cancel_url}">Cancel</a></p></main>`,
      );
    }
    if (req.method === "GET" && (match = path.match(/^\/portal\/([\w]+)$/))) {
      const portal = portalSessions.get(match[1]!);
      if (!portal) {
        res.writeHead(404).end("no such portal session");
        return;
      }
      return html(
        res,
        `<main><h1>Fake Stripe customer portal</h1><p><a href="${portal.return_url}">Return to Polyglot</a></p></main>`,
      );
    }
    res.writeHead(404).end();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    sessions,
    subscriptions,
    requests,
    deliveries,
    event,
    send,
    pay: (sessionId: string) => pay(sessions.get(sessionId)!),
    subscriptionObject,
    invoiceObject,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
