import { useTranslation } from "../i18n/use-translation";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/($lang).account.import";
import { getDatabase } from "../db/db.server";
import { pageNotFound } from "../http/errors";
import { PATHS } from "../http/paths";
import { dispatchIntents, intent, text, upload } from "../http/intents.server";
import { IMPORT_BODY_LIMIT_BYTES, spooledPath } from "../http/request-body.server";
import { z } from "zod";
import { getInstance, requestLocale } from "../i18n/i18n.server";
import { localePath } from "../i18n/locales";
import { useLocalePath } from "../i18n/use-locale";
import { isId } from "../learning/ids";
import { requireLearner } from "../learning/learner.server";
import { studyLanguageName } from "../learning/study-language";
import { ImportPreview } from "../transfer/import-preview";
import { readImportOptions } from "../transfer/import-options.server";
import { binaryKind, isZip, MAX_REVIEWS_PER_NOTE, readAnkiPackage } from "../transfer/anki-import.server";
import type { MediaError, PlannedSound } from "../transfer/anki-media.server";
import { readPackageSounds } from "../transfer/zip-entries.server";
import { keepDraftSound, soundRoomOf } from "../learning/sounds.server";
import { commitImport, deleteDraft, findDraft, MAX_ROWS, previewImport, saveDraft } from "../transfer/import.server";
import { redirectWithToast, translatedToast } from "../toasts/toast.server";
import type { StalenessHandle } from "../edge/staleness";
import type { RowProblem } from "../transfer/targets";
import type { PageHandle } from "../ui/seo";

/** Kept in memory for the learner until their next write: the page and its preview of a file show the learner's drafts and terms, nothing that moves by itself. */
export const handle: PageHandle & StalenessHandle = {
  title: "titles.import",
  staleness: { dependsOn: ["learner"], keptForLearner: true },
};

/** The statuses of a package refused for its media (ADR 126). */
const MEDIA_STATUS: Record<MediaError, number> = {
  zipBomb: 413,
  tooManyFiles: 413,
  mediaPath: 422,
  soundTooLarge: 413,
  soundsOverLimit: 413,
  unsupportedSound: 415,
  unreadable: 422,
};

/** Rows of the preview table and lines of problems listed on the page (the counts cover all of them). */
const SAMPLE_ROWS = 5;
const LISTED_PROBLEMS = 100;
/** The characters of an uploaded cell the preview shows: a longer one is cut, with an ellipsis. */
const ECHOED_CELL = 200;

/** A cell of the upload as the preview echoes it (never half of a character written as a surrogate pair). */
function echoed(cell: string): string {
  if (cell.length <= ECHOED_CELL) return cell;
  const cut = cell.slice(0, ECHOED_CELL - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
}

/**
 * The problems as the preview lists them: one line per reason (and offending value), with how many rows have it and
 * the first of them, in the order they first occur. 186 empty terms are one line, not 186.
 */
function groupedProblems(problems: RowProblem[]): (RowProblem & { count: number })[] {
  const groups = new Map<string, RowProblem & { count: number }>();
  for (const problem of problems) {
    const key = `${problem.reason}\u0000${problem.value ?? ""}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { ...problem, count: 1 });
  }
  return [...groups.values()];
}

/** Without `?draft=` the upload form; with it, the preview of that upload under the chosen column mapping. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, owner } = requireLearner(context);
  const locale = requestLocale(context);
  const params = new URL(request.url).searchParams;
  const languageName = studyLanguageName(owner.language, locale);
  const draftId = params.get("draft");
  if (draftId === null) return { languageName, preview: null };
  if (!isId(draftId)) pageNotFound(request);
  const db = await getDatabase();
  const draft = await findDraft(db, user.id, draftId);
  if (!draft) pageNotFound(request);
  const options = readImportOptions(params);
  const preview = await previewImport(db, user.id, draft, options);
  return {
    languageName: studyLanguageName(draft.language, locale),
    preview: {
      draftId: draft.id,
      fileName: draft.fileName,
      kind: preview.kind,
      fileError: preview.fileError,
      headers: preview.headers.map(echoed),
      mapping: preview.mapping,
      partOfSpeech: options.partOfSpeech,
      firstCells: preview.firstCells.map(echoed),
      toImport: preview.fresh.length,
      sounds: preview.sounds,
      duplicates: preview.duplicates,
      problemCount: preview.problems.length,
      problems: groupedProblems(preview.problems)
        .slice(0, LISTED_PROBLEMS)
        .map((problem) => (problem.value === undefined ? problem : { ...problem, value: echoed(problem.value) })),
      // Reviews an Anki package brings along (a JSON export's are part of its own summary line).
      reviewCount: preview.fresh.reduce((sum, candidate) => sum + (candidate.reviews?.length ?? 0), 0),
      reviewsLeftOut: preview.reviewsLeftOut ?? 0,
      reviewsPerNote: MAX_REVIEWS_PER_NOTE,
      // Terms going into other study languages than the page's (an Anki package of our own, a deck per language).
      otherLanguages: preview.fresh.some((candidate) => candidate.language !== draft.language),
      sample: preview.fresh.slice(0, SAMPLE_ROWS).map(({ line, language, row, exported, reviews }) => {
        const term = row ?? exported!;
        return {
          line,
          language,
          text: echoed(term.text),
          reading: echoed(term.reading),
          meaning: echoed(term.meaning),
          partOfSpeech: term.partOfSpeech,
          notes: echoed(term.notes),
          example: echoed(term.examples[0]?.sentence ?? ""),
          reviews: exported?.reviews.length ?? reviews?.length ?? 0,
        };
      }),
    },
  };
}

// The forms this action takes, built once: building a schema costs more than parsing a form with it.
const uploadFields = z.object({ file: upload(), pasted: text() });
const cancelFields = z.object({ draft: text() });

export async function action({ request, context }: Route.ActionArgs) {
  const { user, owner } = requireLearner(context);
  const { t } = getInstance(context);
  const locale = requestLocale(context);
  const db = await getDatabase();
  const here = localePath(locale, PATHS.import);
  const packageMessage = (refusal: { error: string; name?: string }) =>
    t(`learning:import.packageErrors.${refusal.error}`, { name: refusal.name ?? "" });
  /** The learner's own draft named by the form, or a 404 like a missing one. */
  const ownDraft = async (draftId: string) => {
    if (!isId(draftId)) pageNotFound(request);
    const draft = await findDraft(db, user.id, draftId);
    if (!draft) pageNotFound(request);
    return draft;
  };
  /**
   * An uploaded file's content for the draft: text as it is (up to the text limit); an Anki package read into a draft
   * of its notes; any other binary file refused with what it looks like, never previewed.
   */
  const readUpload = async (
    file: File,
  ): Promise<{ content: string; sounds?: PlannedSound[] } | { message: string; status: number }> => {
    const head = new Uint8Array(await file.slice(0, 64).arrayBuffer());
    const accepts = t("learning:import.accepts");
    const looksLike = (kind: string) => ({
      message: `${t("learning:import.binaryFile", { kind: t(`learning:import.binaryKinds.${kind}`) })} ${accepts}`,
      status: 415,
    });
    const where = spooledPath(file);
    if (isZip(head) && where) {
      const read = await readAnkiPackage(where, MAX_ROWS, await soundRoomOf(db, user.id));
      if ("content" in read) return { content: read.content, sounds: read.sounds };
      if (read.error === "notPackage") return looksLike(read.looksLike ?? "zip");
      const status = {
        tooLarge: 413,
        tooManyNotes: 400,
        tooManyFields: 422,
        newerAnki: 422,
        notAnki: 422,
        ...MEDIA_STATUS,
      };
      return { message: packageMessage(read), status: status[read.error] };
    }
    const kind = binaryKind(head);
    if (kind) return looksLike(kind);
    if (file.size > IMPORT_BODY_LIMIT_BYTES) return { message: t("common:errors.importTooLarge"), status: 413 };
    return { content: await file.text() };
  };
  return dispatchIntents(
    request,
    {
      upload: intent({
        schema: uploadFields,
        run: async ({ file, pasted }) => {
          let content = pasted;
          let sounds: PlannedSound[] = [];
          if (file) {
            const read = await readUpload(file);
            if ("message" in read) return data({ message: read.message }, { status: read.status });
            content = read.content;
            sounds = read.sounds ?? [];
          }
          if (!content.trim()) return data({ message: t("learning:import.nothingToImport") }, { status: 400 });
          const id = await saveDraft(db, owner, file?.name.slice(0, 200) ?? "", content);
          // A package's sounds are kept with its draft; one that is not a sound refuses the whole package.
          const refused = await readPackageSounds(spooledPath(file!) ?? "", sounds, (sound) =>
            keepDraftSound(db, id, sound),
          );
          if (refused) {
            await deleteDraft(db, user.id, id);
            return data({ message: packageMessage(refused) }, { status: MEDIA_STATUS[refused.error] });
          }
          return redirect(`${here}?draft=${id}`, 303);
        },
      }),
      cancel: intent({
        schema: cancelFields,
        run: async ({ draft: draftId }) => {
          const draft = await ownDraft(draftId);
          await deleteDraft(db, user.id, draft.id);
          return redirect(here, 303);
        },
      }),
      // The column mapping and default part of speech are read by the import's own reader of options.
      confirm: intent({
        schema: z.looseObject({ draft: text() }),
        run: async ({ draft: draftId, ...fields }) => {
          const draft = await ownDraft(draftId);
          const options = readImportOptions({ get: (name) => [fields[name] ?? null].flat()[0] });
          const result = await commitImport(db, { userId: user.id, language: draft.language }, draft, options);
          if (result.fileError)
            return data({ message: t(`learning:import.fileErrors.${result.fileError}`) }, { status: 400 });
          return redirectWithToast(
            request,
            localePath(locale, PATHS.memberTerms),
            translatedToast(t, "success", "learning:toasts.imported", {
              count: result.imported,
              duplicates: result.duplicates,
            }),
          );
        },
      }),
    },
    {
      unknown: () => data({ message: t("common:errors.badRequest") }, { status: 400 }),
      invalid: () => data({ message: t("common:errors.badRequest") }, { status: 400 }),
    },
  );
}

export default function ImportPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const { preview, languageName } = loaderData;
  return (
    <section className="narrow import">
      <h1>{t("common:titles.import")}</h1>
      {actionData?.message ? (
        <p className="error-text" role="alert">
          {actionData.message}
        </p>
      ) : null}
      {preview ? (
        <ImportPreview preview={preview} languageName={languageName} pending={pending} />
      ) : (
        <>
          <p className="lead">{t("import.intro", { language: languageName })}</p>
          <p className="hint">{t("import.formats")}</p>
          <Form method="post" encType="multipart/form-data" className="stack" aria-busy={pending}>
            <input type="hidden" name="intent" value="upload" />
            <div className="field">
              <label htmlFor="file">{t("import.file")}</label>
              <input
                id="file"
                name="file"
                type="file"
                accept=".csv,.tsv,.txt,.json,.apkg,text/csv,text/plain,application/json"
              />
            </div>
            <div className="field">
              <label htmlFor="pasted">{t("import.paste")}</label>
              <textarea id="pasted" name="pasted" rows={8} spellCheck={false} />
            </div>
            <button type="submit" className="button" disabled={pending}>
              {t("import.preview")}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to={to(PATHS.export)}>{t("import.exportLink")}</Link>
      </p>
    </section>
  );
}
