import { Outlet } from "react-router";
import { ErrorPage } from "../ui/error-page";
import { AccountLayout } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";

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
