import { useTranslation } from "../i18n/use-translation";
import type { Route } from "./+types/($lang)._default.subscription._index";
import { subscribe } from "../billing/actions.server";
import { subscriptionPage } from "../billing/pages.server";
import { PlanCards } from "../billing/ui";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** The configured prices, and whether a learner is signed in. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.subscription",
  description: "descriptions.subscription",
  staleness: { dependsOn: ["learner"] },
};

export function loader({ context }: Route.LoaderArgs) {
  return subscriptionPage(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return subscribe(request, context);
}

export default function SubscriptionPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("billing");
  const { supporter, signedIn } = loaderData;
  return (
    <section className="plans-page">
      <h1>{t("common:titles.subscription")}</h1>
      <p className="lead">{t("subscription.intro")}</p>
      <PlanCards supporter={supporter} signedIn={signedIn} />
      {supporter.open ? <p className="hint">{t("billing.secure")}</p> : null}
    </section>
  );
}
