import { env } from "../config/env.server";
import { getDatabase } from "../db/db.server";
import { readRawBody } from "../http/request-body.server";
import { log } from "../server/log.server";
import { verifiedEvent } from "./stripe.server";
import { applyStripeEvent, wellFormedEvent } from "./webhook.server";

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/**
 * `POST /webhooks/stripe`: the signature is checked on the exact bytes received (a wrong, stale or missing one is a
 * 400 and changes nothing), so is a signed body that is not shaped like an event; then the event is applied once. Without Stripe configured the endpoint does not exist.
 */
export async function handleStripeWebhook(request: Request): Promise<Response> {
  if (!env.billing.stripe) return json({ error: "payments are not open" }, 404);
  const payload = await readRawBody(request);
  let verified: unknown;
  try {
    verified = await verifiedEvent(payload, request.headers.get("Stripe-Signature"));
  } catch {
    log.warn("stripe webhook refused: bad signature");
    return json({ error: "invalid signature" }, 400);
  }
  // Signed by the holder of the secret, yet not an event: nothing of it is applied or recorded.
  const event = wellFormedEvent(verified);
  if (!event) {
    log.warn("stripe webhook refused: not an event");
    return json({ error: "not a Stripe event" }, 400);
  }
  const outcome = await applyStripeEvent(await getDatabase(), event);
  return json({ received: true, outcome }, 200);
}
