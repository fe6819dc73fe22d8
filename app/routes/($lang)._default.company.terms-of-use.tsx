import type { Route } from "./+types/($lang)._default.company.terms-of-use";
import { env } from "../config/env.server";
import { getInstance } from "../i18n/i18n.server";
import { legalDocument, LegalPage } from "../ui/legal-page";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** The configuration only. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.termsOfUse",
  description: "descriptions.termsOfUse",
  staleness: { dependsOn: [] },
};

export function loader({ context }: Route.LoaderArgs) {
  const { t } = getInstance(context);
  return legalDocument(t, "termsOfUse", t("titles.termsOfUse"), env.legalOperator);
}

export default function TermsOfUsePage({ loaderData }: Route.ComponentProps) {
  return <LegalPage document={loaderData} />;
}
