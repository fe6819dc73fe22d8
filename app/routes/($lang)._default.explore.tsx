import { useTranslation } from "../i18n/use-translation";
import type { Route } from "./+types/($lang)._default.explore";
import { publicPageAction, publicPageData } from "../learning/public-page.server";
import { PublicLists } from "../learning/public-lists";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";
import { PATHS } from "../http/paths";

/**
 * The public lists, and which of their terms a signed-in learner has: kept for everyone until the lists change, and
 * for a signed-in learner until their next write too.
 */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.explore",
  description: "descriptions.explore",
  staleness: { dependsOn: ["public-terms", "learner"], keptForLearner: true },
};

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return publicPageAction(request, context, PATHS.explore);
}

export default function ExplorePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return <PublicLists data={loaderData} title={t("titles.explore")} />;
}
