import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.profile.delete";
import { deleteAccountAction } from "../auth/profile.server";
import { userContext } from "../auth/session.server";
import { useLocalePath } from "../i18n/use-locale";
import { PATHS } from "../http/paths";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.deleteAccount" };

export function loader({ context }: Route.LoaderArgs) {
  return { email: context.get(userContext)?.email ?? "" };
}

export function action({ request, context }: Route.ActionArgs) {
  return deleteAccountAction(request, context);
}

/** The second step of the deletion: what goes, and the word to type. */
export default function DeleteAccountPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("account");
  const to = useLocalePath();
  const pending = useNavigation().state === "submitting";
  const error = actionData?.error;
  const word = t("profile.delete.word");
  return (
    <section className="narrow">
      <h1>{t("common:titles.deleteAccount")}</h1>
      <p className="lead">{t("profile.delete.intro", { email: loaderData.email })}</p>
      <p>{t("profile.delete.exportFirst")}</p>
      <p className="actions">
        <a className="button button-secondary" href={`${to(PATHS.export)}?format=json`} download>
          {t("profile.exportJson")}
        </a>
        <a className="button button-secondary" href={`${to(PATHS.export)}?format=csv`} download>
          {t("profile.exportCsv")}
        </a>
      </p>
      <Form method="post" className="stack">
        <label htmlFor="confirmation">{t("profile.delete.label", { word })}</label>
        <input
          id="confirmation"
          name="confirmation"
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "confirmation-error" : undefined}
        />
        {error ? (
          <p className="field-error" id="confirmation-error">
            {t(error, { word })}
          </p>
        ) : null}
        <p className="actions">
          <button type="submit" className="button button-danger" disabled={pending}>
            {t("profile.delete.submit")}
          </button>{" "}
          <Link to={to(PATHS.profile)}>{t("profile.delete.cancel")}</Link>
        </p>
      </Form>
    </section>
  );
}
