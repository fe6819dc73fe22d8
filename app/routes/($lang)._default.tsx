import { Outlet } from "react-router";
import { ErrorPage } from "../ui/error-page";
import type { Route } from "./+types/($lang)._default";
import { headerDueCount } from "../learning/header.server";
import { DefaultLayout, type LayoutData } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";

/** A signed-in learner's header counts the review here too; a visitor's gets nothing to load. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<LayoutData> {
  return { dueNow: await headerDueCount(request, context) };
}

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
