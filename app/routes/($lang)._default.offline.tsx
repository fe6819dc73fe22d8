import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.offline";
import { basicModeContext } from "../http/basic-mode.server";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { useTranslation } from "../i18n/use-translation";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "offline.title" };

/**
 * The page the service worker shows, from the device's copy, when a page cannot be loaded offline (ADR 065). It stands
 * in for any address, so it is drawn as basic HTML: no script that would try to run another page's code.
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }, next) => {
    context.set(basicModeContext, true);
    return next();
  },
];

export default function OfflinePage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("offline.title")}</h1>
      <p className="lead">{t("offline.intro")}</p>
      <p>{t("offline.reviewWorks")}</p>
      <p className="actions">
        <Link to={to(PATHS.review)} className="button">
          {t("offline.continueReview")}
        </Link>
      </p>
    </section>
  );
}
