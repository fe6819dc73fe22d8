import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/($lang)._default.confirm";
import { authProvider } from "../auth/providers/index.server";
import { userContext } from "../auth/session.server";
import { completeSignIn } from "../auth/sign-in.server";
import { getDatabase } from "../db/db.server";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { useLocalePath } from "../i18n/use-locale";
import type { PageHandle } from "../ui/seo";
import { PATHS } from "../http/paths";
import { readForm } from "../http/request-body.server";

export const handle: PageHandle = { title: "titles.confirm", description: "descriptions.confirm" };

/**
 * The address holds a usable token: no request made from this page names it to another site. The server sends
 * `Referrer-Policy: same-origin` with it (`referrerPolicyFor`, which says why not `no-referrer`); the element says the
 * same to the browser.
 */
export const meta: Route.MetaFunction = () => [{ name: "referrer", content: "same-origin" }];

/**
 * GET never consumes the link (mail scanners follow links): it carries the link's parameters into a form and names
 * the address it signs in, so a planted link cannot sign someone into another account unnoticed. A link that can no
 * longer be used, opened by someone who is signed in already (the second click on a mail's link), says so and leads
 * home instead of offering a confirmation that can only fail.
 */
/** Signed in already, with no link to confirm: the page says so in its title too, not “Confirm sign-in”. */
const SIGNED_IN_TITLE = { titleKey: "titles.alreadySignedIn" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  const search = new URL(request.url).searchParams;
  const params = authProvider.linkParams.map((name) => ({ name, value: search.get(name) ?? "" }));
  const user = context.get(userContext);
  if (!params.every((param) => param.value)) {
    return { params: null, address: null, signedInAs: user?.email ?? null, ...(user ? SIGNED_IN_TITLE : {}) };
  }
  const address = await authProvider.linkAddress(
    await getDatabase(),
    Object.fromEntries(params.map((p) => [p.name, p.value])),
  );
  if (user && address.email === null && address.reason === "unusable") {
    return { params: null, address: null, signedInAs: user.email, spent: true, ...SIGNED_IN_TITLE };
  }
  return { params, address, signedInAs: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { t } = getInstance(context);
  return completeSignIn(await getDatabase(), request, await readForm(request), requestLocale(context), t);
}

/** Waits for the person's click: never submitted by script, since scanners run JavaScript too. */
export default function ConfirmPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("pages");
  const to = useLocalePath();
  const { pathname } = useLocation();
  const pending = useNavigation().state !== "idle";
  const { params, address, signedInAs } = loaderData;
  if (signedInAs !== null && (!params || !address)) {
    return (
      <section className="narrow">
        <h1>{t("common:titles.alreadySignedIn")}</h1>
        <p>{"spent" in loaderData ? t("confirm.spentSignedIn") : t("confirm.noLinkSignedIn")}</p>
        <p className="confirm-address">{t("confirm.signedInAs", { email: signedInAs })}</p>
        <p>
          <Link to={to(PATHS.learnerHome)} className="button">
            {t("confirm.goHome")}
          </Link>
        </p>
      </section>
    );
  }
  if (!params || !address) {
    return (
      <section className="narrow">
        <h1>{t("common:titles.confirm")}</h1>
        <p>{t("confirm.noLink")}</p>
        <p>
          <Link to={to(PATHS.signIn)} className="button">
            {t("confirm.requestNew")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow">
      <h1>{t("common:titles.confirm")}</h1>
      <p>{t("confirm.intro")}</p>
      <p className="confirm-address">
        {address.email !== null
          ? t("confirm.signingInAs", { email: address.email })
          : t(address.reason === "unknowable" ? "confirm.addressUnknown" : "confirm.unknownLink")}
      </p>
      <Form method="post" action={pathname} replace>
        {params.map((param) => (
          <input key={param.name} type="hidden" name={param.name} value={param.value} />
        ))}
        <button type="submit" className="button" disabled={pending}>
          {pending ? t("confirm.pending") : t("confirm.submit")}
        </button>
      </Form>
    </section>
  );
}
