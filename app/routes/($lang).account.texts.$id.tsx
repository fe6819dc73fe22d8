import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useNavigate, useNavigation, useSubmit } from "react-router";
import { useHydrated } from "remix-utils/use-hydrated";
import type { Route } from "./+types/($lang).account.texts.$id";
import { PATHS, textPath } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { readerPageAction, readerPageData } from "../reading/reader-page.server";
import { ReaderText } from "../reading/reader-text";
import { ListenControl } from "../reading/listen-control";
import { Pager, StageLegend, TextStatsLine } from "../reading/reading-ui";
import { StarterListLink } from "../learning/next-action";
import { TextFields } from "../reading/text-fields";
import { KEY_STAGES } from "../reading/view";
import { WordPanel } from "../reading/word-panel";
import { usePanelFocus } from "../reading/panel-focus";
import type { PageHandle } from "../ui/seo";
import type { StalenessHandle } from "../edge/staleness";

/** Kept in memory for the learner until their next write or a word's stage changing by itself. */
export const handle: PageHandle & StalenessHandle<Awaited<ReturnType<typeof loader>>> = {
  title: "reading:titles.reader",
  staleness: { dependsOn: ["learner"], changesAt: (data) => [data.changesAt], keptForLearner: true },
};

export function loader({ request, params, context }: Route.LoaderArgs) {
  return readerPageData(request, context, params.id);
}

export function action({ request, params, context }: Route.ActionArgs) {
  return readerPageAction(request, context, params.id);
}

const isField = (target: EventTarget | null) =>
  (target as HTMLElement | null)?.matches("input, textarea, select") ?? false;

/** The next page, or the end of the text, as a form: the page's remaining new words become known (the setting). */
function PageTurn({ page, label, pending }: { page: number; label: string; pending: boolean }) {
  return (
    <Form method="post" className="inline-form page-turn">
      <input type="hidden" name="intent" value="turnPage" />
      <input type="hidden" name="page" value={page} />
      <button type="submit" className="button button-small button-secondary" disabled={pending}>
        {label}
      </button>
    </Form>
  );
}

export default function ReaderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("reading");
  const to = useLocalePath();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const submit = useSubmit();
  const pending = useNavigation().state === "submitting";
  const { id, reader, mode } = loaderData;
  const { page, selected } = reader;
  const here = to(textPath(id));
  const pageLink = (n: number) => `${here}?page=${n}`;
  const wordLink = (word: number) => `${here}?page=${page}&word=${word}#w-${word}`;
  const hasNewWords = reader.paragraphs.some((pieces) =>
    pieces.some((piece) => typeof piece !== "string" && piece.stage === "new"),
  );

  // With JavaScript the focus moves into the panel when it opens and back to the word when it closes (panel-focus.ts).
  usePanelFocus(selected?.word ?? null);

  // Escape closes the panel, 1–4 set the stage of the word's term (the arrow keys are ReaderText's).
  const onKey = (event: KeyboardEvent) => {
    if (!selected) return;
    if (event.key === "Escape") {
      event.preventDefault();
      void navigate(pageLink(page), { preventScrollReset: true });
      document.getElementById(`w-${selected.word}`)?.focus();
      return;
    }
    const stage = KEY_STAGES[Number(event.key) - 1];
    if (!stage || !selected.term || isField(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    const form = { intent: "stage", termId: selected.term.id, stage, page: String(page), word: String(selected.word) };
    void submit(
      { ...form, inPlace: "1" },
      { method: "post", action: `${here}?page=${page}&word=${selected.word}`, preventScrollReset: true },
    );
  };

  if (mode === "edit")
    return (
      <section className="narrow">
        <h1>{t("edit.title")}</h1>
        {actionData?.message ? <p role="alert">{actionData.message}</p> : null}
        <Form method="post" encType="multipart/form-data" className="stack" aria-busy={pending}>
          <input type="hidden" name="intent" value="update" />
          <TextFields
            values={{ title: reader.title, body: loaderData.body }}
            errors={actionData?.intent === "update" ? actionData.errors : undefined}
            language={reader.language}
            upload={false}
          />
          <button type="submit" className="button" disabled={pending}>
            {t("edit.save")}
          </button>
        </Form>
        <p>
          <Link to={here}>{t("edit.cancel")}</Link>
        </p>
      </section>
    );

  return (
    <article className="reader">
      <p className="eyebrow">{loaderData.languageName}</p>
      <h1 lang={reader.language}>{reader.title}</h1>
      <TextStatsLine stats={reader.stats} />
      <StageLegend />
      <ListenControl
        key={page}
        language={reader.language}
        languageName={loaderData.languageName}
        serverVoices={loaderData.serverVoices}
        rate={loaderData.listenRate}
      />
      {reader.readings?.available ? (
        <Form method="post" className="inline-form readings-toggle">
          <input type="hidden" name="intent" value="readings" />
          <input type="hidden" name="page" value={page} />
          <input type="hidden" name="show" value={reader.readings.shown ? "off" : "on"} />
          <button type="submit" className="button button-small button-secondary" disabled={pending}>
            {t(reader.readings.shown ? "readings.hide" : "readings.show")}
          </button>
        </Form>
      ) : null}
      {actionData?.message && actionData.intent !== "addTerm" && !selected ? (
        <p className="error-text" role="alert">
          {actionData.message}
        </p>
      ) : null}
      <ReaderText
        language={reader.language}
        paragraphs={reader.paragraphs}
        selectedWord={selected?.word ?? null}
        wordLink={wordLink}
        onKey={onKey}
        panel={
          selected ? (
            <WordPanel
              selected={selected}
              language={reader.language}
              page={page}
              action={`${here}?page=${page}&word=${selected.word}`}
              closeLink={`${pageLink(page)}#w-${selected.word}`}
              failure={actionData}
              inPlace={hydrated}
              dictionary={loaderData.dictionary}
              meanings={loaderData.meanings}
            />
          ) : null
        }
      />
      {hasNewWords ? (
        <Form method="post" className="inline-form mark-known">
          <input type="hidden" name="intent" value="markKnown" />
          <input type="hidden" name="page" value={page} />
          <button type="submit" className="button button-secondary" disabled={pending}>
            {t("markKnown.button")}
          </button>
        </Form>
      ) : null}
      {loaderData.knownBatch ? (
        <Form method="post" className="inline-form mark-known">
          <input type="hidden" name="intent" value="undoKnown" />
          <input type="hidden" name="page" value={page} />
          <input type="hidden" name="batch" value={loaderData.knownBatch} />
          <p className="hint">{t("markKnown.undoHint")}</p>
          <button type="submit" className="button button-small button-secondary" disabled={pending}>
            {t("markKnown.undo")}
          </button>
        </Form>
      ) : null}
      <Pager
        page={page}
        pages={reader.pages}
        link={pageLink}
        next={loaderData.knownOnPageTurn ? <PageTurn page={page} label={t("next")} pending={pending} /> : undefined}
      />
      {loaderData.knownOnPageTurn && page === reader.pages && hasNewWords ? (
        <PageTurn page={page} label={t("markKnown.finish")} pending={pending} />
      ) : null}
      {loaderData.knownOnPageTurn ? <p className="hint">{t("markKnown.turnHint")}</p> : null}
      <p className="hint">{t("readerHint")}</p>
      {loaderData.starterList ? (
        <StarterListLink list={loaderData.starterList} language={loaderData.languageName} />
      ) : null}
      <section className="text-actions">
        <Link className="button button-secondary" to={`${here}?edit=1`}>
          {t("edit.title")}
        </Link>{" "}
        {mode === "delete" ? (
          <Form method="post" className="stack">
            <p role="alert">{t("delete.confirm", { title: reader.title })}</p>
            <input type="hidden" name="intent" value="delete" />
            <p>
              <button type="submit" className="button button-danger">
                {t("delete.yes")}
              </button>{" "}
              <Link to={here}>{t("edit.cancel")}</Link>
            </p>
          </Form>
        ) : (
          <Link className="button button-secondary" to={`${here}?delete=1`}>
            {t("delete.title")}
          </Link>
        )}
      </section>
      <p>
        <Link to={to(PATHS.texts)}>{t("back")}</Link>
      </p>
    </article>
  );
}
