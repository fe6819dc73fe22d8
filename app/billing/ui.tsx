import { useTranslation } from "../i18n/use-translation";
import { Form, Link } from "react-router";
import { PATHS } from "../http/paths";
import { useLocale, useLocalePath } from "../i18n/use-locale";
import type { CheckoutOutcome } from "./pages.server";
import { PERIODS } from "./plans";

/** The one benefit a paid plan grants today, shown wherever the plan is. */
export function SupporterBadge() {
  const { t } = useTranslation("billing");
  return <span className="badge badge-supporter">{t("billing.badge")}</span>;
}

/**
 * Free for everyone, and the Supporter plan with its price: a POST form per billing period (works without JavaScript),
 * or, while payments are closed, the reason it cannot be bought today.
 */
export function PlanCards({
  supporter,
  signedIn,
}: {
  supporter: { monthly: string; yearly: string; open: boolean };
  signedIn: boolean;
}) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  const features = (plan: string) =>
    t(`subscription.plans.${plan}.features`)
      .split(" · ")
      .map((feature) => <li key={feature}>{feature}</li>);
  const name = t("subscription.plans.supporter.name");
  return (
    <ul className="cards plans">
      <li className="card">
        <h2>{t("subscription.plans.free.name")}</h2>
        <p className="price">{t("subscription.freePrice")}</p>
        <ul>{features("free")}</ul>
        <p className="hint">{t("subscription.current")}</p>
      </li>
      <li className="card">
        <h2>{name}</h2>
        <p className="price">
          {supporter.monthly} <span>{t("subscription.perMonth")}</span>
        </p>
        <p className="hint">{t("subscription.orYearly", { amount: supporter.yearly })}</p>
        <ul>{features("supporter")}</ul>
        {supporter.open ? (
          <Form method="post" reloadDocument action={to(PATHS.subscription)} className="plan-form">
            <input type="hidden" name="plan" value="supporter" />
            <fieldset>
              <legend>{t("subscription.periodLabel")}</legend>
              {PERIODS.map((period) => (
                <label key={period} className="choice">
                  <input type="radio" name="period" value={period} defaultChecked={period === "monthly"} />{" "}
                  {t(`subscription.periods.${period}`, { amount: supporter[period] })}
                </label>
              ))}
            </fieldset>
            <button type="submit" className="button">
              {t("subscription.choose", { plan: name })}
            </button>
            {signedIn ? null : <p className="hint">{t("subscription.signInFirst")}</p>}
          </Form>
        ) : (
          <p className="notice">{t("billing.closed")}</p>
        )}
      </li>
    </ul>
  );
}

type Campaign = {
  open: boolean;
  pledged: string;
  goal: string;
  percent: number;
  value: number;
  max: number;
  backers: number;
  daysLeft: number;
  endsOn: string;
  presets: { amount: number; label: string }[];
  minLabel: string;
  maxLabel: string;
};

/** Totals and a progress bar drawn by the server: a <progress> whose text says the same for assistive technology. */
export function CampaignProgress({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation("billing");
  const summary = t("crowdfunding.pledged", { pledged: campaign.pledged, goal: campaign.goal });
  const percent = new Intl.NumberFormat(useLocale(), { style: "percent" }).format(campaign.percent / 100);
  return (
    <div className="campaign-progress">
      <p className="campaign-total">
        <strong>{summary}</strong>
      </p>
      <progress
        value={campaign.value}
        max={campaign.max}
        aria-label={t("crowdfunding.progressLabel")}
        aria-valuetext={`${summary} (${percent})`}
      >
        {percent}
      </progress>
      <ul className="campaign-facts">
        <li>{t("crowdfunding.percent", { percent })}</li>
        <li>{t("crowdfunding.backers", { count: campaign.backers })}</li>
        <li>
          {campaign.daysLeft > 0
            ? t("crowdfunding.daysLeft", { count: campaign.daysLeft, date: campaign.endsOn })
            : t("crowdfunding.ended", { date: campaign.endsOn })}
        </li>
      </ul>
    </div>
  );
}

/** Preset amounts, a custom one within bounds, and an address for the receipt when signed out. */
export function PledgeForm({ campaign, signedIn }: { campaign: Campaign; signedIn: boolean }) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  return (
    <Form method="post" reloadDocument action={to(PATHS.crowdfunding)} className="pledge-form">
      <fieldset>
        <legend>{t("crowdfunding.amountLabel")}</legend>
        {campaign.presets.map((preset, index) => (
          <label key={preset.amount} className="choice">
            <input type="radio" name="amount" value={preset.amount} defaultChecked={index === 0} /> {preset.label}
          </label>
        ))}
      </fieldset>
      <label>
        {t("crowdfunding.customAmount")}
        <input name="custom" inputMode="decimal" autoComplete="off" aria-describedby="pledge-bounds" />
      </label>
      <p className="hint" id="pledge-bounds">
        {t("crowdfunding.bounds", { min: campaign.minLabel, max: campaign.maxLabel })}
      </p>
      {signedIn ? null : (
        <label>
          {t("crowdfunding.emailLabel")}
          <input type="email" name="email" autoComplete="email" required />
        </label>
      )}
      <button type="submit" className="button">
        {t("crowdfunding.pledgeButton")}
      </button>
      <p className="hint">{t("billing.secure")}</p>
    </Form>
  );
}

/** What a return from Checkout found, for every outcome but a paid one (each page shows that its own way). */
export function CheckoutProblem({
  outcome,
  retry,
}: {
  outcome: Exclude<CheckoutOutcome, { kind: "paid" }>;
  retry: string;
}) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  const key = outcome.kind === "not-found" ? "notFound" : outcome.kind === "not-yours" ? "notYours" : outcome.kind;
  return (
    <>
      <p className="lead">{t(`checkout.${key}.title`)}</p>
      <p>{t(`checkout.${key}.body`)}</p>
      <p>
        <Link className="button" to={to(retry)}>
          {t(retry === PATHS.crowdfunding ? "checkout.backToCampaign" : "checkout.backToPlans")}
        </Link>
      </p>
    </>
  );
}

/** The account home's one line about the plan, linking to the billing page. */
export function PlanLine({ plan }: { plan: { name: string; status: string; granted: boolean } | null }) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  return (
    <p className="plan-line">
      {plan
        ? t("billing.planLine", {
            plan: t(`subscription.plans.${plan.name}.name`),
            status: t(`billing.status.${plan.status}`),
          })
        : t("billing.freeLine")}{" "}
      {plan?.granted ? <SupporterBadge /> : null} <Link to={to(PATHS.billing)}>{t("common:titles.billing")}</Link>
    </p>
  );
}
