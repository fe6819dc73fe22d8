import type { Stripe } from "stripe";
import { env } from "../config/env.server";

let client: Stripe | null = null;

/** Stripe's SDK (about 200 modules) is loaded on first use, not at every start of a server that may never pay. */
const sdk = async () => (await import("stripe")).Stripe;

/** The configured Stripe client (pointed at STRIPE_API_URL), or null when payments are not open. */
export async function stripeClient(): Promise<Stripe | null> {
  const config = env.billing.stripe;
  if (!config) return null;
  const Stripe = await sdk();
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
export async function verifiedEvent(payload: Buffer, signature: string | null): Promise<Stripe.Event> {
  const config = env.billing.stripe;
  if (!config || !signature) throw new Error("no signature");
  return (await sdk()).webhooks.constructEvent(payload, signature, config.webhookSecret);
}
