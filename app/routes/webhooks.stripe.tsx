import type { Route } from "./+types/webhooks.stripe";
import { handleStripeWebhook } from "../billing/webhook-endpoint.server";
import { pageNotFound } from "../http/errors";

/** Stripe's event deliveries: JSON signed with the webhook secret, posted without cookies from Stripe's servers. */
export function action({ request }: Route.ActionArgs) {
  return handleStripeWebhook(request);
}

export function loader({ request }: Route.LoaderArgs): never {
  pageNotFound(request);
}
