import { Outlet } from "react-router";
import { ErrorPage } from "../ui/error-page";
import { PlayLayout } from "../ui/layouts";
import { DocumentTitle } from "../ui/seo";

export default function PlayLayoutRoute() {
  return (
    <PlayLayout>
      <DocumentTitle />
      <Outlet />
    </PlayLayout>
  );
}

export function ErrorBoundary() {
  return (
    <PlayLayout>
      <ErrorPage />
    </PlayLayout>
  );
}
