import { useTranslation } from "../i18n/use-translation";
import type { Route } from "./+types/($lang).account.explore.public";
import { publicPageAction, publicPageData } from "../learning/public-page.server";
import { PublicLists } from "../learning/public-lists";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";
import type { StalenessHandle } from "../edge/staleness";

/** Kept in memory for the learner until their next write or a change of the public lists. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.public",
  staleness: { dependsOn: ["public-terms", "learner"], keptForLearner: true },
};

export function loader({ request, context }: Route.LoaderArgs) {
  return publicPageData(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return publicPageAction(request, context, PATHS.publicLists);
}

export default function PublicExplorePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return <PublicLists data={loaderData} title={t("titles.public")} />;
}
