import type { Route } from "./+types/($lang)._default.company.privacy";
import { env } from "../config/env.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { PATHS } from "../http/paths";
import { legalDocument, LegalPage } from "../ui/legal-page";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** The configuration only. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.privacy",
  description: "descriptions.privacy",
  staleness: { dependsOn: [] },
};

/** The rights this notice promises lead to the pages that grant them. */
export function loader({ context }: Route.LoaderArgs) {
  const { t } = getInstance(context);
  const to = (path: string) => localePath(requestLocale(context), path);
  return legalDocument(t, "privacy", t("titles.privacy"), env.legalOperator, {
    rights: [
      { to: to(PATHS.profile), label: t("legal:privacy.links.profile") },
      { to: `${to(PATHS.export)}?format=json`, label: t("legal:privacy.links.export") },
      { to: to(PATHS.deleteAccount), label: t("legal:privacy.links.delete") },
    ],
  });
}

export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return <LegalPage document={loaderData} />;
}
