import type { Route } from "./+types/($lang)._default.company.privacy";
import { getInstance } from "../i18n/i18n.server";
import { legalDocument, LegalPage } from "../ui/legal-page";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.privacy", description: "descriptions.privacy" };

export function loader({ context }: Route.LoaderArgs) {
  const { t } = getInstance(context);
  return legalDocument(t, "privacy", t("titles.privacy"));
}

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return <LegalPage document={loaderData} />;
}
