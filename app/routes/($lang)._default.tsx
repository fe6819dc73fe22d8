import { Outlet } from "react-router";
import { ErrorPage } from "../ui/error-page";
import type { Route } from "./+types/($lang)._default";
import { headerDueCount } from "../learning/header.server";
import { DefaultLayout, type LayoutData } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** A signed-in learner's header counts the review here too; a visitor's gets nothing to load. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<LayoutData> {
  return headerDueCount(request, context);
}

/** The header shows the learner's review count, which changes with their writes and as cards fall due. */
export const handle: StalenessHandle<LayoutData> = {
  staleness: { dependsOn: ["learner"], changesAt: (data) => data.changesAt },
};

export default function DefaultLayoutRoute() {
  return (
    <DefaultLayout>
      <DocumentTitle />
      <Outlet />
    </DefaultLayout>
  );
}

export function ErrorBoundary() {
  return (
    <DefaultLayout>
      <ErrorPage />
    </DefaultLayout>
  );
}
