import { useTranslation } from "../i18n/use-translation";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.texts.new";
import { newTextAction, newTextPageData } from "../reading/texts-page.server";
import { TextFields } from "../reading/text-fields";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "reading:titles.newText" };

export function loader({ context }: Route.LoaderArgs) {
  return newTextPageData(context);
}

export function action({ request, context }: Route.ActionArgs) {
  return newTextAction(request, context);
}

export default function NewTextPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("reading");
  const pending = useNavigation().state === "submitting";
  return (
    <section className="narrow">
      <h1>{t("titles.newText")}</h1>
      <p className="hint">{t("form.language", { language: loaderData.languageName })}</p>
      {actionData ? (
        <p className="error-text" role="alert">
          {t("errors.summary")}
        </p>
      ) : null}
      {/* A form in parts: a pasted text is sent as it is (URL encoding would triple non-Latin text). */}
      <Form method="post" encType="multipart/form-data" className="stack" aria-busy={pending}>
        <TextFields values={actionData?.values} errors={actionData?.errors} language={loaderData.language} upload />
        <button type="submit" className="button" disabled={pending}>
          {t("form.create")}
        </button>
      </Form>
    </section>
  );
}
