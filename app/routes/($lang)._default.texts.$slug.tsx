import { useTranslation } from "../i18n/use-translation";
import { Form, Link } from "react-router";
import type { Route } from "./+types/($lang)._default.texts.$slug";
import { PATHS } from "../http/paths";
import { capitalize } from "../i18n/format";
import { useLocalePath } from "../i18n/use-locale";
import { ReaderText } from "../reading/reader-text";
import { textDirection } from "../learning/vocabulary";
import { StageLegend, TextStatsLine } from "../reading/reading-ui";
import { samplePageAction, samplePageData } from "../reading/samples-page.server";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** A shipped sample text, and a signed-in learner's words in it. */
export const handle: PageHandle & StalenessHandle = {
  title: "reading:titles.sample",
  staleness: { dependsOn: ["learner"] },
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  return samplePageData(request, context, params.slug);
}

export function action({ request, params, context }: Route.ActionArgs) {
  return samplePageAction(request, context, params.slug);
}

export default function SamplePage({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("reading");
  const to = useLocalePath();
  const { view, learner } = loaderData;
  return (
    <article className="reader">
      <p className="eyebrow">
        {capitalize(loaderData.languageName, i18n.language)} · {t(`lists:levels.${loaderData.level}`)}
      </p>
      <h1 lang={view.language} dir={textDirection(view.language)}>
        {view.title}
      </h1>
      {learner ? (
        <>
          <p className="lead">{t(learner.copy ? "samples.yoursAdded" : "samples.yours")}</p>
          <TextStatsLine stats={view.stats} />
        </>
      ) : (
        <p className="lead">{t("samples.demo")}</p>
      )}
      <StageLegend />
      <ReaderText language={view.language} paragraphs={view.paragraphs} />
      {learner?.copy ? (
        <p>
          <Link to={learner.copy} className="button">
            {t("samples.open")}
          </Link>
        </p>
      ) : (
        <Form method="post">
          <button type="submit" className="button">
            {t(learner ? "samples.add" : "samples.read")}
          </button>
        </Form>
      )}
      <p>
        <Link to={to(PATHS.sampleTexts)}>{t("samples.back")}</Link>
      </p>
    </article>
  );
}
