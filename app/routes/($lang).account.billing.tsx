import { useTranslation } from "../i18n/use-translation";
import { Form, Link } from "react-router";
import type { Route } from "./+types/($lang).account.billing";
import { manageBilling } from "../billing/actions.server";
import { billingPage } from "../billing/pages.server";
import { SupporterBadge } from "../billing/ui";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/**
 * Kept in memory for the learner until their next write: the plan comes from their subscription's row, which Stripe's
 * webhooks write (its triggers move the learner's data version), and nothing on it moves by itself.
 */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.billing",
  staleness: { dependsOn: ["learner"], keptForLearner: true },
};

export function loader({ context }: Route.LoaderArgs) {
  return billingPage(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return manageBilling(request, context);
}

/** The learner's plan, its status, a failed payment's notice and the way to Stripe's customer portal. */
export default function BillingPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  const { plan, open } = loaderData;
  return (
    <section className="narrow">
      <h1>{t("common:titles.billing")}</h1>
      {plan?.paymentFailed ? (
        <p className="notice notice-error" role="alert">
          {t("billing.paymentFailed")}
        </p>
      ) : null}
      {plan ? (
        <>
          <p className="lead">
            {t("billing.planLine", {
              plan: t(`subscription.plans.${plan.name}.name`),
              status: t(`billing.status.${plan.status}`),
            })}{" "}
            {plan.granted ? <SupporterBadge /> : null}
          </p>
          {plan.periodEnd && plan.status === "active" ? (
            <p>
              {t("billing.renews", {
                date: plan.periodEnd,
                amount: plan.amount ?? "",
                period: t(`billing.per.${plan.period}`),
              })}
            </p>
          ) : null}
          {plan.periodEnd && plan.status === "canceling" ? (
            <p>{t("billing.endsOn", { date: plan.periodEnd })}</p>
          ) : null}
          <Form method="post" reloadDocument>
            <button type="submit" className="button">
              {t("billing.manage")}
            </button>
          </Form>
          <p className="hint">{t("billing.manageHint")}</p>
          {plan.status === "ended" ? (
            <p>
              <Link to={to(PATHS.subscription)}>{t("billing.seePlans")}</Link>
            </p>
          ) : null}
        </>
      ) : (
        <>
          <p className="lead">{t("billing.free")}</p>
          <p>{open ? <Link to={to(PATHS.subscription)}>{t("billing.seePlans")}</Link> : t("billing.closed")}</p>
        </>
      )}
    </section>
  );
}
