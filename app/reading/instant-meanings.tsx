import { Link } from "react-router";
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

/** What a meaning's button sends as `choice` (panel-terms.server.ts' readChoice): the part of speech, a bar, the gloss. */
const choiceOf = (entry: InstantMeaning, gloss: string) =>
  `${isPartOfSpeech(entry.partOfSpeech) ? entry.partOfSpeech : ""}|${gloss}`;

/**
 * The glosses the dictionaries (and the public lists) hold for the word of an open panel, each a submit button of a
 * form of the word panel that carries the word and its sentence: one press adds the term with that meaning, its part of
 * speech and the sentence as its example. Typing a meaning of one's own stays the "add term" form below.
 */
export function InstantMeanings({
  entries,
  textLanguage,
  pending,
}: {
  entries: InstantMeaning[];
  textLanguage: string;
  /** The `choice` being saved (JavaScript), whose button shows it. */
  pending?: string | null;
}) {
  const { t } = useTranslation("reading");
  const to = useLocalePath();
  if (entries.length === 0) return null;
  const shown = limitGlosses(entries, MAX_BUTTONS);

  return (
    <section className="instant-meanings" aria-labelledby="instant-meanings-title">
      <h3 id="instant-meanings-title">{t("meanings.title")}</h3>
      <p className="hint" id="instant-meanings-hint">
        {t("meanings.hint")}
      </p>
      {shown.map((entry, index) => (
        <div key={index} className="meaning-entry">
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
                name="choice"
                value={choiceOf(entry, gloss)}
                lang={entry.language}
                className="button button-small button-secondary meaning-button"
                aria-describedby="instant-meanings-hint"
                aria-busy={pending === choiceOf(entry, gloss) || undefined}
                disabled={!!pending}
              >
                {gloss}
              </button>
            ))}
          </div>
        </div>
      ))}
      <p className="hint">
        <Link to={to(PATHS.dictionaries)}>{t("meanings.sources")}</Link>
      </p>
    </section>
  );
}
