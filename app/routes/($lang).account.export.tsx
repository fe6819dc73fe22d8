import { useTranslation } from "../i18n/use-translation";
import { data, Link } from "react-router";
import type { Route } from "./+types/($lang).account.export";
import { getDatabase } from "../db/db.server";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { requireLearner } from "../learning/learner.server";
import { learnerTimeZone } from "../learning/time-zone.server";
import { dayFormatter, safeTimeZone } from "../progress/days";
import { exportDocument, reviewsCsv, termsCsv } from "../transfer/export.server";
import type { PageHandle } from "../ui/seo";

export const handle: PageHandle = { title: "titles.export" };

/**
 * `?format=json` (everything, one document), `?format=csv` (the terms) and `?format=csv&part=reviews` (the review
 * history) answer with a file; without `format` the page offers the three.
 */
const download: Route.MiddlewareFunction = async ({ request, context }, next) => {
  const params = new URL(request.url).searchParams;
  const format = params.get("format");
  if (format === null) return next();
  const part = params.get("part") ?? "terms";
  if (
    (format !== "csv" && format !== "json") ||
    (part !== "terms" && part !== "reviews") ||
    (format === "json" && params.has("part"))
  )
    throw data(null, { status: 400 });
  const { user } = requireLearner(context);
  const db = await getDatabase();
  const now = new Date();
  const document = await exportDocument(db, user.id, now);
  const day = dayFormatter(safeTimeZone(await learnerTimeZone(db, user.id)))(now);
  const [body, type, name] =
    format === "json"
      ? [JSON.stringify(document, null, 2), "application/json", `polyglot-export-${day}.json`]
      : part === "reviews"
        ? [reviewsCsv(document), "text/csv", `polyglot-reviews-${day}.csv`]
        : [termsCsv(document), "text/csv", `polyglot-terms-${day}.csv`];
  return new Response(body, {
    headers: {
      "Content-Type": `${type}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
};

export const middleware = [download];

export function loader({ context }: Route.LoaderArgs) {
  requireLearner(context);
  return null;
}

export default function ExportPage() {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  // Plain links that load a document: a download is never a client-side navigation.
  return (
    <section className="narrow">
      <h1>{t("common:titles.export")}</h1>
      <p className="lead">{t("export.intro")}</p>
      <ul className="download-list">
        <li>
          <a className="button" href={`${to(PATHS.export)}?format=json`} download>
            {t("export.json")}
          </a>
          <p className="hint">{t("export.jsonHint")}</p>
        </li>
        <li>
          <a className="button button-secondary" href={`${to(PATHS.export)}?format=csv`} download>
            {t("export.csv")}
          </a>
          <p className="hint">{t("export.csvHint")}</p>
        </li>
        <li>
          <a className="button button-secondary" href={`${to(PATHS.export)}?format=csv&part=reviews`} download>
            {t("export.reviewsCsv")}
          </a>
          <p className="hint">{t("export.reviewsCsvHint")}</p>
        </li>
      </ul>
      <p>
        <Link to={to(PATHS.import)}>{t("export.importLink")}</Link>
      </p>
    </section>
  );
}
