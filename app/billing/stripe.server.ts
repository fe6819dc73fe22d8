import { Stripe } from "stripe";
import { env } from "../config/env.server";

let client: Stripe | null = null;

/** The configured Stripe client (pointed at STRIPE_API_URL), or null when payments are not open. */
export function stripeClient(): Stripe | null {
  const config = env.billing.stripe;
  if (!config) return null;
  client ??= new Stripe(config.secretKey, {
    host: config.host,
    port: config.port,
    protocol: config.protocol,
    maxNetworkRetries: 1,
    timeout: 10_000,
    telemetry: false,
  });
  return client;
}

/** Verifies a webhook delivery's signature on its raw bytes; throws on a wrong, stale or missing one. */
export function verifiedEvent(payload: Buffer, signature: string | null): Stripe.Event {
  const config = env.billing.stripe;
  if (!config || !signature) throw new Error("no signature");
  return Stripe.webhooks.constructEvent(payload, signature, config.webhookSecret);
}
