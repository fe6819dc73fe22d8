import { useTranslation } from "../i18n/use-translation";
import type { Route } from "./+types/($lang)._default.crowdfunding-campaign._index";
import { pledge } from "../billing/actions.server";
import { campaignPage } from "../billing/pages.server";
import { CampaignProgress, PledgeForm } from "../billing/ui";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** The campaign's totals, and whether a learner is signed in. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.crowdfunding",
  description: "descriptions.crowdfunding",
  staleness: { dependsOn: ["pledges", "learner"] },
};

/** What the campaign already paid for, and what it pays for next. */
const DELIVERED = ["player", "offline"] as const;
const GOALS = ["voices", "languages"] as const;

export function loader({ context }: Route.LoaderArgs) {
  return campaignPage(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return pledge(request, context);
}

export default function CrowdfundingPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("billing");
  const { campaign, signedIn } = loaderData;
  return (
    <section>
      <h1>{t("common:titles.crowdfunding")}</h1>
      <p className="lead">{t("crowdfunding.intro")}</p>
      {campaign ? <CampaignProgress campaign={campaign} /> : <p>{t("crowdfunding.notStarted")}</p>}
      <h2>{t("crowdfunding.deliveredTitle")}</h2>
      <ul className="campaign-delivered">
        {DELIVERED.map((goal) => (
          <li key={goal}>{t(`crowdfunding.delivered.${goal}`)}</li>
        ))}
      </ul>
      <h2>{t("crowdfunding.goalTitle")}</h2>
      <ul className="campaign-goals">
        {GOALS.map((goal) => (
          <li key={goal}>{t(`crowdfunding.goals.${goal}`)}</li>
        ))}
      </ul>
      <h2>{t("crowdfunding.supportersTitle")}</h2>
      <p>{t("crowdfunding.supporters")}</p>
      <h2>{t("crowdfunding.howTitle")}</h2>
      <p>{t("crowdfunding.how")}</p>
      {campaign?.open ? (
        <PledgeForm campaign={campaign} signedIn={signedIn} />
      ) : (
        <p className="hint">{t("crowdfunding.closed")}</p>
      )}
    </section>
  );
}
