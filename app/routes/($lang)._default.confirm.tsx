import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/($lang)._default.confirm";
import { authProvider } from "../auth/providers/index.server";
import { completeSignIn } from "../auth/sign-in.server";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { useLocalePath } from "../ui/locale";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.confirm", description: "descriptions.confirm" };

/** GET never consumes the link (mail scanners follow links): it only carries the link's parameters into a form. */
export function loader({ request }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const params = authProvider.linkParams.map((name) => ({ name, value: search.get(name) ?? "" }));
  return { params: params.every((param) => param.value) ? params : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  return completeSignIn(await getDatabase(), request, await request.formData(), requestLocale(context), t);
}

export default function ConfirmPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const { pathname } = useLocation();
  const form = useRef<HTMLFormElement>(null);
  const submitted = useRef(false);
  const navigation = useNavigation();
  const pending = navigation.state !== "idle";
  // With JavaScript the learner does not have to press the button; without it, the button is the way.
  useEffect(() => {
    if (submitted.current || !form.current) return;
    submitted.current = true;
    form.current.requestSubmit();
  }, []);
  if (!loaderData.params) {
    return (
      <section className="narrow">
        <h1>{t("common:titles.confirm")}</h1>
        <p>{t("confirm.noLink")}</p>
        <p>
          <Link to={to("/form")} className="button">{t("confirm.requestNew")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>{t("common:titles.confirm")}</h1>
      <p>{t("confirm.intro")}</p>
      <Form method="post" action={pathname} ref={form} replace>
        {loaderData.params.map((param) => (
          <input key={param.name} type="hidden" name={param.name} value={param.value} />
        ))}
        <button type="submit" className="button" disabled={pending}>
          {pending ? t("confirm.pending") : t("confirm.submit")}
        </button>
      </Form>
    </section>
  );
}
