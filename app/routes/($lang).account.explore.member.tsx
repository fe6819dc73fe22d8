import { useTranslation } from "react-i18next";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.member" };

export default function MemberExplorePage() {
  const { t } = useTranslation("pages");
  return (
    <section>
      <h1>{t("common:titles.member")}</h1>
      <p className="lead">{t("account.memberIntro")}</p>
    </section>
  );
}
