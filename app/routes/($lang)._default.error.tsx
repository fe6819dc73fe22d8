import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.error";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";

export const handle: PageHandle = { title: "titles.error", description: "descriptions.error" };

const REASONS = ["expired", "used", "invalid"] as const;

export function loader({ request }: Route.LoaderArgs) {
  const reason = new URL(request.url).searchParams.get("reason");
  return { reason: REASONS.find((known) => known === reason) ?? null };
}

/** Where a sign-in that cannot finish ends up: what went wrong, and a way to request a new link. */
export default function SignInErrorPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  return (
    <section className="narrow">
      <h1>{t("common:titles.error")}</h1>
      <p>{t("error.intro")}</p>
      <p className="error-reason">
        {loaderData.reason ? t(`common:signInError.${loaderData.reason}`) : t("error.generic")}
      </p>
      <p>
        <Link to={to(PATHS.signIn)} className="button">
          {t("error.retry")}
        </Link>
      </p>
    </section>
  );
}
