import { useTranslation } from "../i18n/use-translation";
import { Form } from "react-router";
import { OFFERED_PARTS_OF_SPEECH } from "../learning/vocabulary";
import { TARGETS, type RowProblem, type Target } from "./targets";

export type PreviewData = {
  draftId: string;
  fileName: string;
  kind: "csv" | "tsv" | "anki" | "json" | "apkg";
  fileError: "unreadable" | "empty" | "tooManyRows" | null;
  headers: string[];
  mapping: Target[];
  firstCells: string[];
  partOfSpeech: string;
  toImport: number;
  duplicates: number;
  problemCount: number;
  /** One line per kind of problem: how many rows have it, and the first of them. */
  problems: (RowProblem & { count: number })[];
  /** Graded reviews an Anki package brings along for the terms to import. */
  reviewCount: number;
  /** Sounds an Anki package brings along for the terms to import (ADR 126). */
  sounds: number;
  /** Older reviews of an Anki package's notes left out: each note keeps its newest `reviewsPerNote`. */
  reviewsLeftOut: number;
  reviewsPerNote: number;
  /** Some terms go into other study languages than the page's: the summary names none. */
  otherLanguages: boolean;
  sample: {
    line: number;
    language: string;
    text: string;
    reading: string;
    meaning: string;
    partOfSpeech: string;
    notes: string;
    example: string;
    reviews: number;
  }[];
};

/** The mapping as hidden fields, so the confirm POST imports exactly what the preview showed. */
function MappingFields({ preview }: { preview: PreviewData }) {
  return (
    <>
      {preview.mapping.map((target, i) => (
        <input key={i} type="hidden" name={`col${i}`} value={target} />
      ))}
      <input type="hidden" name="pos" value={preview.partOfSpeech} />
    </>
  );
}

/** What an import will do, before it does it: column mapping, first rows, problems by line, counts; then confirm. */
export function ImportPreview({
  preview,
  languageName,
  pending,
}: {
  preview: PreviewData;
  languageName: string;
  pending: boolean;
}) {
  const { t } = useTranslation("learning");
  const json = preview.kind === "json";
  const hasReadings = preview.sample.some((row) => row.reading);
  const listed = preview.problems.reduce((sum, problem) => sum + problem.count, 0);
  return (
    <>
      <p className="lead">
        {t(`import.kinds.${preview.kind}`)}
        {preview.fileName ? ` · ${preview.fileName}` : ""}
      </p>
      {preview.fileError ? (
        <p className="error-text" role="alert">
          {t(`import.fileErrors.${preview.fileError}`)}
        </p>
      ) : (
        <>
          {json ? null : (
            <Form method="get" className="stack import-mapping">
              <input type="hidden" name="draft" value={preview.draftId} />
              <fieldset className="stack">
                <legend>{t("import.mappingLegend")}</legend>
                {preview.mapping.map((target, i) => (
                  <div className="field" key={i}>
                    <label htmlFor={`col${i}`}>
                      {t("import.column", { number: i + 1, name: preview.headers[i] || preview.firstCells[i] || "—" })}
                    </label>
                    <select id={`col${i}`} name={`col${i}`} defaultValue={target}>
                      {TARGETS.map((option) => (
                        <option key={option} value={option}>
                          {t(`import.targets.${option}`)}
                        </option>
                      ))}
                    </select>
                  </div>
                ))}
                <div className="field">
                  <label htmlFor="pos">{t("import.defaultPartOfSpeech")}</label>
                  <select id="pos" name="pos" defaultValue={preview.partOfSpeech}>
                    <option value="">{t("term.noPartOfSpeech")}</option>
                    {OFFERED_PARTS_OF_SPEECH.map((pos) => (
                      <option key={pos} value={pos}>
                        {t(`lists:partsOfSpeech.${pos}`)}
                      </option>
                    ))}
                  </select>
                </div>
              </fieldset>
              <button type="submit" className="button button-secondary">
                {t("import.updatePreview")}
              </button>
            </Form>
          )}
          <h2>{t("import.summaryTitle")}</h2>
          <ul className="import-summary">
            <li>
              {t(json || preview.otherLanguages ? "import.willAddAll" : "import.willAdd", {
                count: preview.toImport,
                language: languageName,
              })}
            </li>
            {preview.kind === "apkg" ? <li>{t("import.reviewsKept", { count: preview.reviewCount })}</li> : null}
            {preview.sounds > 0 ? <li>{t("import.soundsKept", { count: preview.sounds })}</li> : null}
            {preview.reviewsLeftOut > 0 ? (
              <li>{t("import.reviewsLeftOut", { count: preview.reviewsLeftOut, max: preview.reviewsPerNote })}</li>
            ) : null}
            <li>{t("import.duplicates", { count: preview.duplicates })}</li>
            <li>{t("import.problemCount", { count: preview.problemCount })}</li>
          </ul>
          {preview.sample.length > 0 ? (
            <div>
              <h3 id="import-sample-title">{t("import.sampleCaption", { count: preview.sample.length })}</h3>
              <table className="import-sample stacked-table" aria-labelledby="import-sample-title">
                <thead>
                  <tr>
                    <th scope="col">{t("import.line")}</th>
                    <th scope="col">{t("import.targets.text")}</th>
                    {hasReadings ? <th scope="col">{t("import.targets.reading")}</th> : null}
                    <th scope="col">{t("import.targets.meaning")}</th>
                    <th scope="col">{t("import.targets.partOfSpeech")}</th>
                    <th scope="col">{t("import.targets.notes")}</th>
                    <th scope="col">{t("import.targets.example")}</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.sample.map((row) => (
                    <tr key={row.line}>
                      <td data-label={t("import.line")}>{row.line}</td>
                      <td data-label={t("import.targets.text")} lang={row.language}>
                        {row.text}
                      </td>
                      {hasReadings ? (
                        <td data-label={t("import.targets.reading")} lang={row.language}>
                          {row.reading}
                        </td>
                      ) : null}
                      <td data-label={t("import.targets.meaning")}>{row.meaning}</td>
                      <td data-label={t("import.targets.partOfSpeech")}>
                        {row.partOfSpeech ? t(`lists:partsOfSpeech.${row.partOfSpeech}`) : ""}
                      </td>
                      <td data-label={t("import.targets.notes")}>{row.notes}</td>
                      <td data-label={t("import.targets.example")} lang={row.language}>
                        {row.example}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
          {preview.problems.length > 0 ? (
            <>
              <h2>{t("import.problemsTitle")}</h2>
              <ul className="import-problems">
                {preview.problems.map((problem) => (
                  <li key={problem.line}>
                    {problem.count > 1
                      ? t(json ? "import.entriesAt" : "import.rowsAt", { count: problem.count, first: problem.line })
                      : t(json ? "import.entry" : "import.atLine", { line: problem.line })}{" "}
                    {t(`import.reasons.${problem.reason}`, { value: problem.value ?? "" })}
                  </li>
                ))}
              </ul>
              {preview.problemCount > listed ? (
                <p className="hint">{t("import.moreProblems", { count: preview.problemCount - listed })}</p>
              ) : null}
            </>
          ) : null}
          <Form method="post" className="actions" aria-busy={pending}>
            <input type="hidden" name="draft" value={preview.draftId} />
            <MappingFields preview={preview} />
            <button
              type="submit"
              name="intent"
              value="confirm"
              className="button"
              disabled={pending || preview.toImport === 0}
            >
              {t("import.confirm", { count: preview.toImport })}
            </button>
            <button type="submit" name="intent" value="cancel" className="button button-secondary" disabled={pending}>
              {t("import.cancel")}
            </button>
          </Form>
        </>
      )}
      {preview.fileError ? (
        <Form method="post">
          <input type="hidden" name="draft" value={preview.draftId} />
          <button type="submit" name="intent" value="cancel" className="button button-secondary">
            {t("import.startOver")}
          </button>
        </Form>
      ) : null}
    </>
  );
}
