import { useTranslation } from "../i18n/use-translation";
import { data, Link } from "react-router";
import type { Route } from "./+types/($lang).account.export";
import { getDatabase } from "../db/db.server";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { requireLearner } from "../learning/learner.server";
import { learnerTimeZone } from "../learning/time-zone.server";
import { dayFormatter, safeTimeZone } from "../progress/days";
import { capitalize } from "../i18n/format";
import { requestLocale } from "../i18n/i18n.server";
import { studyLanguageName } from "../learning/study-language";
import { ankiPackage } from "../transfer/anki-export.server";
import { findSound, soundsByTerm } from "../learning/sounds.server";
import { documentJson, exportDocument, knownWordsCsv, reviewsCsv, termsCsv } from "../transfer/export.server";
import type { StalenessHandle } from "../edge/staleness";
import type { PageHandle } from "../ui/seo";

/** Kept in memory for the learner until their next write: the page shows nothing that moves by itself (its downloads are files, never kept). */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.export",
  staleness: { dependsOn: ["learner"], keptForLearner: true },
};

/**
 * `?format=json` (everything, one document), `?format=csv` (the terms), `?format=csv&part=reviews` (the review
 * history), `?format=csv&part=known` (the known words) and `?format=apkg` (an Anki package: a deck per study language with the review history) answer with a file;
 * without `format` the page offers the four.
 */
const downloadFile: Route.MiddlewareFunction = async ({ request, context }, next) => {
  const params = new URL(request.url).searchParams;
  const format = params.get("format");
  if (format === null) return next();
  const part = params.get("part") ?? "terms";
  if (
    (format !== "csv" && format !== "json" && format !== "apkg") ||
    (part !== "terms" && part !== "reviews" && part !== "known") ||
    (format !== "csv" && params.has("part"))
  )
    throw data(null, { status: 400 });
  const { user } = requireLearner(context);
  const db = await getDatabase();
  const now = new Date();
  const document = await exportDocument(db, user.id, now);
  const day = dayFormatter(safeTimeZone(await learnerTimeZone(db, user.id)))(now);
  if (format === "apkg") {
    const locale = requestLocale(context);
    // The code in brackets lets the import put each deck's terms back into their study language.
    const deckName = (language: string) =>
      `Polyglot::${capitalize(studyLanguageName(language, locale), locale)} (${language})`;
    const sounds = await soundsByTerm(db, user.id);
    const soundOf = (language: string, text: string) => {
      const sound = sounds.get(`${language}\u0000${text}`);
      return (
        sound && { ...sound, read: async () => (await findSound(db, user.id, sound.hash))?.data ?? Buffer.alloc(0) }
      );
    };
    const archive = await ankiPackage(document, deckName, now, soundOf);
    return download(archive, "application/apkg", `polyglot-${day}.apkg`);
  }
  const [parts, type, name] =
    format === "json"
      ? [await documentJson(document), "application/json", `polyglot-export-${day}.json`]
      : part === "reviews"
        ? [await reviewsCsv(document), "text/csv", `polyglot-reviews-${day}.csv`]
        : part === "known"
          ? [await knownWordsCsv(document), "text/csv", `polyglot-known-words-${day}.csv`]
          : [await termsCsv(document), "text/csv", `polyglot-terms-${day}.csv`];
  return download(textStream(parts), `${type}; charset=utf-8`, name);
};

/** Text written in parts, each encoded when the connection asks for more (never one copy of the whole file). */
function textStream(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next < parts.length) controller.enqueue(encoder.encode(parts[next++]));
      else controller.close();
    },
  });
}

/** A file to save, never cached, never sniffed. */
function download(body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>, type: string, name: string) {
  return new Response(body, {
    headers: {
      "Content-Type": type,
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export const middleware = [downloadFile];

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
        <li>
          <a className="button button-secondary" href={`${to(PATHS.export)}?format=csv&part=known`} download>
            {t("export.knownCsv")}
          </a>
          <p className="hint">{t("export.knownCsvHint")}</p>
        </li>
        <li>
          <a className="button button-secondary" href={`${to(PATHS.export)}?format=apkg`} download>
            {t("export.apkg")}
          </a>
          <p className="hint">{t("export.apkgHint")}</p>
          <p className="hint">{t("export.soundsHint")}</p>
        </li>
      </ul>
      <p>
        <Link to={to(PATHS.import)}>{t("export.importLink")}</Link>
      </p>
    </section>
  );
}
