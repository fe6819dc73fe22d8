import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.subscription.post-purchase";
import { checkoutReturnPage } from "../billing/pages.server";
import { CheckoutProblem, SupporterBadge } from "../billing/ui";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.postPurchase", description: "descriptions.postPurchase" };

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export function loader({ request, context }: Route.LoaderArgs) {
  return checkoutReturnPage(request, context, "subscription");
}

/** Back from Checkout: what Stripe says was paid, never what the address claims. */
export default function PostPurchasePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  const { outcome } = loaderData;
  return (
    <section className="narrow">
      <h1>{t("common:titles.postPurchase")}</h1>
      {outcome.kind === "paid" ? (
        <>
          <p className="lead">{t("postPurchase.intro")}</p>
          <p>
            {t("postPurchase.paid", {
              plan: t(`subscription.plans.${outcome.plan ?? "supporter"}.name`),
              amount: outcome.amount,
              period: t(`billing.per.${outcome.period ?? "monthly"}`),
            })}{" "}
            <SupporterBadge />
          </p>
          {outcome.renewsOn ? <p>{t("postPurchase.renews", { date: outcome.renewsOn })}</p> : null}
          <p>
            <Link className="button" to={to(PATHS.billing)}>
              {t("postPurchase.seePlan")}
            </Link>{" "}
            <Link to={to(PATHS.learnerHome)}>{t("postPurchase.continue")}</Link>
          </p>
        </>
      ) : outcome.kind === "missing" ? (
        <CheckoutProblem outcome={{ kind: "not-found" }} retry={PATHS.subscription} />
      ) : (
        <CheckoutProblem outcome={outcome} retry={PATHS.subscription} />
      )}
    </section>
  );
}
