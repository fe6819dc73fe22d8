import { Outlet } from "react-router";
import { ErrorPage } from "../ui/error-page";
import { DefaultLayout } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";

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
