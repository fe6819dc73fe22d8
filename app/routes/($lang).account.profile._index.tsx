import { useTranslation } from "../i18n/use-translation";
import { Form, Link } from "react-router";
import type { Route } from "./+types/($lang).account.profile._index";
import { profileAction, profileData } from "../auth/profile.server";
import { SessionList } from "../auth/session-list";
import { SignOutEverywhere } from "../auth/sign-out-everywhere";
import { requireLearner } from "../learning/learner.server";
import { planLine } from "../billing/pages.server";
import { PlanLine } from "../billing/ui";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

export const handle: PageHandle & StalenessHandle = {
  title: "titles.profile",
  // Sessions begin and end through the data version (drizzle/0020); "this device" differs per session.
  staleness: { dependsOn: ["learner"], keptForLearner: true, perSession: true },
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = requireLearner(context);
  const [profile, plan] = await Promise.all([profileData(request, context), planLine(user.id)]);
  return { ...profile, plan };
}

export function action({ request, context }: Route.ActionArgs) {
  return profileAction(request, context);
}

export default function ProfilePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("account");
  const to = useLocalePath();
  const { email, sessions } = loaderData;
  return (
    <section className="narrow">
      <h1>{t("common:titles.profile")}</h1>
      <h2>{t("profile.emailTitle")}</h2>
      <p>
        {t("profile.emailIntro")} <strong>{email}</strong>
      </p>

      <h2>{t("common:titles.billing")}</h2>
      <PlanLine plan={loaderData.plan} />

      <h2>{t("profile.sessionsTitle")}</h2>
      <SessionList sessions={sessions} />
      {sessions.some((session) => !session.current) ? (
        <Form method="post">
          <button type="submit" name="intent" value="signOutOthers" className="button button-secondary">
            {t("profile.signOutOthers")}
          </button>
        </Form>
      ) : null}
      <SignOutEverywhere />

      <h2>{t("profile.exportTitle")}</h2>
      <p>{t("profile.exportIntro")}</p>
      <p className="actions">
        <a className="button" href={`${to(PATHS.export)}?format=json`} download>
          {t("profile.exportJson")}
        </a>{" "}
        <a className="button button-secondary" href={`${to(PATHS.export)}?format=csv`} download>
          {t("profile.exportCsv")}
        </a>
      </p>

      <h2>{t("profile.deleteTitle")}</h2>
      <p>{t("profile.deleteIntro")}</p>
      <p>
        <Link className="button button-danger" to={to(PATHS.deleteAccount)}>
          {t("profile.deleteStart")}
        </Link>
      </p>
    </section>
  );
}
