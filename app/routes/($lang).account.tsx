import { Outlet } from "react-router";
import type { Route } from "./+types/($lang).account";
import { headerDueCount } from "../learning/header.server";
import { ErrorPage } from "../ui/error-page";
import { AccountLayout, type LayoutData } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";

/** The header's review count: what the review would show now, within today's limits. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<LayoutData> {
  return { dueNow: await headerDueCount(request, context) };
}

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
