import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.subscription", description: "descriptions.subscription" };

const PLANS = ["free", "supporter", "team"] as const;

export default function SubscriptionPage() {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section>
      <h1>{t("common:titles.subscription")}</h1>
      <p className="lead">{t("subscription.intro")}</p>
      <ul className="cards plans">
        {PLANS.map((plan) => {
          const name = t(`subscription.plans.${plan}.name`);
          return (
            <li key={plan} className="card">
              <h2>{name}</h2>
              <p className="price">
                {t(`subscription.plans.${plan}.price`)} <span>{t("subscription.perMonth")}</span>
              </p>
              <ul>
                {t(`subscription.plans.${plan}.features`)
                  .split(" · ")
                  .map((feature) => (
                    <li key={feature}>{feature}</li>
                  ))}
              </ul>
              {plan === "free" ? (
                <p className="hint">{t("subscription.current")}</p>
              ) : (
                <Link className="button" to={to(`/subscription/post-purchase?plan=${plan}`)}>
                  {t("subscription.choose", { plan: name })}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
      <p className="hint">{t("subscription.notice")}</p>
    </section>
  );
}
