import { useTranslation } from "react-i18next";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.public" };

export default function PublicExplorePage() {
  const { t } = useTranslation("pages");
  return (
    <section>
      <h1>{t("common:titles.public")}</h1>
      <p className="lead">{t("account.publicIntro")}</p>
    </section>
  );
}
