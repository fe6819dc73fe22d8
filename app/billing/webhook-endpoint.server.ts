import { env } from "../config/env.server";
import { getDatabase } from "../db/db.server";
import { readRawBody } from "../http/request-body.server";
import { log } from "../server/log.server";
import { verifiedEvent } from "./stripe.server";
import { applyStripeEvent } from "./webhook.server";

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/**
 * `POST /webhooks/stripe`: the signature is checked on the exact bytes received (a wrong, stale or missing one is a
 * 400 and changes nothing), then the event is applied once. Without Stripe configured the endpoint does not exist.
 */
export async function handleStripeWebhook(request: Request): Promise<Response> {
  if (!env.billing.stripe) return json({ error: "payments are not open" }, 404);
  const payload = await readRawBody(request);
  let event;
  try {
    event = await verifiedEvent(payload, request.headers.get("Stripe-Signature"));
  } catch {
    log.warn("stripe webhook refused: bad signature");
    return json({ error: "invalid signature" }, 400);
  }
  const outcome = await applyStripeEvent(await getDatabase(), event);
  return json({ received: true, outcome }, 200);
}
