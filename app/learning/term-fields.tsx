import type { ReactNode } from "react";
import { useTranslation } from "../i18n/use-translation";
import type { FieldErrors } from "./term-form";
import { FieldError } from "./ui";
import { READING_LANGUAGES } from "../reading/readings";
import { OFFERED_PARTS_OF_SPEECH, PARTS_OF_SPEECH } from "./vocabulary";

export type TermValues = { text: string; reading: string; meaning: string; partOfSpeech: string; notes: string };

/**
 * The labelled inputs of a term, with their server-side errors. With `more`, only the term and its meaning show at
 * first: the part of speech, the notes and `more` (say, an example) are behind "More", opened when one has an error.
 */
export function TermFields({
  values,
  errors,
  language,
  more,
}: {
  values?: Partial<TermValues>;
  errors?: FieldErrors;
  language: string;
  more?: ReactNode;
}) {
  const { t } = useTranslation("learning");
  const described = (name: keyof FieldErrors) => (errors?.[name] ? `${name}-error` : undefined);
  const readingField = (
    <>
      <label htmlFor="reading">{t("term.reading")}</label>
      <input
        id="reading"
        name="reading"
        lang={language}
        maxLength={200}
        defaultValue={values?.reading}
        aria-invalid={!!errors?.reading}
        aria-describedby={described("reading")}
      />
      <FieldError id="reading-error" error={errors?.reading} />
    </>
  );
  // Japanese and Chinese terms (and any term that has one) show their reading beside the term; others behind "More".
  const readingFirst = more === undefined || READING_LANGUAGES.has(language) || !!values?.reading;
  const optional = (
    <>
      {readingFirst ? null : readingField}
      <label htmlFor="partOfSpeech">{t("term.partOfSpeech")}</label>
      <select
        id="partOfSpeech"
        name="partOfSpeech"
        defaultValue={values?.partOfSpeech ?? ""}
        aria-invalid={!!errors?.partOfSpeech}
        aria-describedby={described("partOfSpeech")}
      >
        <option value="">{t("term.noPartOfSpeech")}</option>
        {PARTS_OF_SPEECH.filter((pos) => OFFERED_PARTS_OF_SPEECH.includes(pos) || pos === values?.partOfSpeech).map(
          (pos) => (
            <option key={pos} value={pos}>
              {t(`lists:partsOfSpeech.${pos}`)}
            </option>
          ),
        )}
      </select>
      <FieldError id="partOfSpeech-error" error={errors?.partOfSpeech} />
      <label htmlFor="notes">{t("term.notes")}</label>
      <textarea
        id="notes"
        name="notes"
        rows={3}
        maxLength={2000}
        defaultValue={values?.notes}
        aria-invalid={!!errors?.notes}
        aria-describedby={described("notes")}
      />
      <FieldError id="notes-error" error={errors?.notes} />
    </>
  );
  return (
    <>
      <label htmlFor="text">{t("term.text")}</label>
      <input
        id="text"
        name="text"
        lang={language}
        required
        maxLength={200}
        defaultValue={values?.text}
        aria-invalid={!!errors?.text}
        aria-describedby={described("text")}
      />
      <FieldError id="text-error" error={errors?.text} />
      {readingFirst ? readingField : null}
      <label htmlFor="meaning">{t("term.meaning")}</label>
      <input
        id="meaning"
        name="meaning"
        maxLength={500}
        defaultValue={values?.meaning}
        aria-invalid={!!errors?.meaning}
        aria-describedby={described("meaning")}
      />
      <FieldError id="meaning-error" error={errors?.meaning} />
      {more === undefined ? (
        optional
      ) : (
        <details
          className="more-fields"
          open={!!(errors?.reading || errors?.notes || errors?.sentence || errors?.translation)}
        >
          <summary>{t("term.more")}</summary>
          <div className="stack">
            {optional}
            {more}
          </div>
        </details>
      )}
    </>
  );
}

export function ExampleFields({
  errors,
  language,
  idPrefix = "",
  values,
}: {
  errors?: FieldErrors;
  language: string;
  idPrefix?: string;
  values?: { sentence?: string };
}) {
  const { t } = useTranslation("learning");
  return (
    <>
      <label htmlFor={`${idPrefix}sentence`}>{t("term.exampleSentence")}</label>
      <input
        id={`${idPrefix}sentence`}
        name="sentence"
        lang={language}
        maxLength={500}
        defaultValue={values?.sentence}
        aria-invalid={!!errors?.sentence}
        aria-describedby={errors?.sentence ? `${idPrefix}sentence-error` : undefined}
      />
      <FieldError id={`${idPrefix}sentence-error`} error={errors?.sentence} />
      <label htmlFor={`${idPrefix}translation`}>{t("term.exampleTranslation")}</label>
      <input id={`${idPrefix}translation`} name="translation" maxLength={500} aria-invalid={!!errors?.translation} />
      <FieldError id={`${idPrefix}translation-error`} error={errors?.translation} />
    </>
  );
}
