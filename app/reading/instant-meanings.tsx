import type { MouseEvent } from "react";
import { Form, Link } from "react-router";
import { PATHS } from "../http/paths";
import { useLocalePath } from "../i18n/use-locale";
import { useTranslation } from "../i18n/use-translation";
import { PARTS_OF_SPEECH } from "../learning/vocabulary";

/** A dictionary entry for the selected word, as the reader's loader found it (app/dictionary/entries.server.ts). */
export type InstantMeaning = {
  headword: string;
  via: string | null;
  reading: string | null;
  partOfSpeech: string | null;
  glosses: string[];
  language: string;
};

/** At most this many glosses are offered, however many entries matched. */
const MAX_BUTTONS = 12;

/** The entries with at most `max` glosses in all, the first entries' first. */
function limitGlosses(entries: InstantMeaning[], max: number): InstantMeaning[] {
  const shown: InstantMeaning[] = [];
  let left = max;
  for (const entry of entries) {
    if (left <= 0) break;
    const glosses = entry.glosses.slice(0, left);
    left -= glosses.length;
    if (glosses.length > 0) shown.push({ ...entry, glosses });
  }
  return shown;
}

const isPartOfSpeech = (value: string | null): value is string =>
  value !== null && (PARTS_OF_SPEECH as readonly string[]).includes(value);

/**
 * The glosses the dictionaries hold for the word of an open panel, each a button that fills the "add term" form's
 * meaning (and part of speech) with one press. Without JavaScript a button is a GET form: the reader comes back with
 * `meaning=` and the form prefilled; with it, the button fills the form in place. The meaning stays a field to type in.
 */
export function InstantMeanings({
  entries,
  textLanguage,
  page,
  word,
  base,
}: {
  entries: InstantMeaning[];
  textLanguage: string;
  page: number;
  word: number;
  /** The reader's address without its query. */
  base: string;
}) {
  const { t } = useTranslation("reading");
  const to = useLocalePath();
  if (entries.length === 0) return null;
  const shown = limitGlosses(entries, MAX_BUTTONS);

  const fill = (event: MouseEvent<HTMLButtonElement>) => {
    const panel = event.currentTarget.closest(".word-panel");
    const meaning = panel?.querySelector<HTMLInputElement>("#meaning");
    if (!meaning) return;
    event.preventDefault();
    meaning.value = event.currentTarget.value;
    const pos = event.currentTarget.form?.elements.namedItem("partOfSpeech") as HTMLInputElement | null;
    const select = panel?.querySelector<HTMLSelectElement>("#partOfSpeech");
    if (select && pos?.value) select.value = pos.value;
    meaning.focus();
  };

  return (
    <section className="instant-meanings" aria-labelledby="instant-meanings-title">
      <h3 id="instant-meanings-title">{t("meanings.title")}</h3>
      <p className="hint" id="instant-meanings-hint">
        {t("meanings.hint")}
      </p>
      {shown.map((entry, index) => (
        <Form key={index} method="get" action={`${base}#word-panel`} preventScrollReset className="meaning-entry">
          <input type="hidden" name="page" value={page} />
          <input type="hidden" name="word" value={word} />
          {isPartOfSpeech(entry.partOfSpeech) ? (
            <input type="hidden" name="partOfSpeech" value={entry.partOfSpeech} />
          ) : null}
          <p className="meaning-headword">
            {entry.via ? <span className="hint">{t("meanings.dictionaryForm")} </span> : null}
            <span lang={textLanguage}>{entry.headword}</span>
            {entry.reading ? (
              <>
                {" "}
                <span lang={textLanguage === "zh" ? "zh-Latn" : textLanguage}>{entry.reading}</span>
              </>
            ) : null}
            {isPartOfSpeech(entry.partOfSpeech) ? ` · ${t(`lists:partsOfSpeech.${entry.partOfSpeech}`)}` : null}
          </p>
          <div className="meaning-buttons">
            {entry.glosses.map((gloss) => (
              <button
                key={gloss}
                type="submit"
                name="meaning"
                value={gloss}
                lang={entry.language}
                className="button button-small button-secondary"
                aria-describedby="instant-meanings-hint"
                onClick={fill}
              >
                {gloss}
              </button>
            ))}
          </div>
        </Form>
      ))}
      <p className="hint">
        <Link to={to(PATHS.dictionaries)}>{t("meanings.sources")}</Link>
      </p>
    </section>
  );
}
