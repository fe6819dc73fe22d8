import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.crowdfunding-campaign.thank-you";
import { checkoutReturnPage } from "../billing/pages.server";
import { CampaignProgress, CheckoutProblem } from "../billing/ui";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.pledgeThanks" };

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export function loader({ request, context }: Route.LoaderArgs) {
  return checkoutReturnPage(request, context, "payment");
}

/** Back from a pledge's Checkout: the session as Stripe has it, and the campaign's totals now. */
export default function PledgeThanksPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  const { outcome, campaign } = loaderData;
  return (
    <section className="narrow">
      <h1>{t("common:titles.pledgeThanks")}</h1>
      {outcome.kind === "paid" ? (
        <>
          <p className="lead">{t("pledgeThanks.paid", { amount: outcome.amount })}</p>
          <p>{t("pledgeThanks.counting")}</p>
          {campaign ? <CampaignProgress campaign={campaign} /> : null}
          <p>
            <Link className="button" to={to(PATHS.crowdfunding)}>
              {t("checkout.backToCampaign")}
            </Link>
          </p>
        </>
      ) : (
        <CheckoutProblem
          outcome={outcome.kind === "missing" ? { kind: "not-found" } : outcome}
          retry={PATHS.crowdfunding}
        />
      )}
    </section>
  );
}
