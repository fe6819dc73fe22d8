import { Outlet } from "react-router";
import type { Route } from "./+types/($lang).account";
import { headerDueCount } from "../learning/header.server";
import { ErrorPage } from "../ui/error-page";
import { AccountLayout, type LayoutData } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** The header's review count: what the review would show now, within today's limits. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<LayoutData> {
  return headerDueCount(request, context);
}

/** The header shows the learner's review count, which changes with their writes and as cards fall due. */
export const handle: StalenessHandle<LayoutData> = {
  staleness: { dependsOn: ["learner"], changesAt: (data) => data.changesAt },
};

export default function AccountLayoutRoute() {
  return (
    <AccountLayout>
      <DocumentTitle />
      <Outlet />
    </AccountLayout>
  );
}

export function ErrorBoundary() {
  return (
    <AccountLayout>
      <ErrorPage />
    </AccountLayout>
  );
}
