import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.logout" };

export default function LogoutPage() {
  const { t } = useTranslation("pages");
  return (
    <section className="narrow">
      <h1>{t("common:titles.logout")}</h1>
      <p>{t("logout.intro")}</p>
      <Form method="post">
        <button type="submit" className="button">{t("logout.submit")}</button>
      </Form>
    </section>
  );
}
