import { useTranslation } from "../i18n/use-translation";
import { Link } from "react-router";
import type { Route } from "./+types/($lang)._default.texts._index";
import { samplePath } from "../http/paths";
import { capitalize } from "../i18n/format";
import { useLocalePath } from "../i18n/use-locale";
import { samplesPageData } from "../reading/samples-page.server";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** The shipped sample texts, and a signed-in learner's progress in them. */
export const handle: PageHandle & StalenessHandle = {
  title: "reading:titles.samples",
  description: "reading:descriptions.samples",
  staleness: { dependsOn: ["learner"] },
};

export function loader({ context }: Route.LoaderArgs) {
  return samplesPageData(context);
}

export default function SamplesPage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("reading");
  const to = useLocalePath();
  return (
    <section>
      <h1>{t("titles.samples")}</h1>
      <p className="lead">{t("samples.intro")}</p>
      <ul className="sample-list">
        {loaderData.samples.map((sample) => (
          <li key={sample.slug}>
            <Link to={to(samplePath(sample.slug))} lang={sample.language}>
              {sample.title}
            </Link>{" "}
            <span className="hint">
              {capitalize(sample.languageName, i18n.language)} · {t(`lists:levels.${sample.level}`)} ·{" "}
              {t("stats.words", { count: sample.words })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
