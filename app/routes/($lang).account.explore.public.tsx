import { useTranslation } from "../i18n/use-translation";
import type { Route } from "./+types/($lang).account.explore.public";
import { publicPageAction, publicPageData } from "../learning/public-page.server";
import { PublicLists } from "../learning/public-lists";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.public" };

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
