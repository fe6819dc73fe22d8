import { useTranslation } from "../i18n/use-translation";
import { Form, Link, useFetcher } from "react-router";
import { useEffect, useRef } from "react";
import { quoteMarks } from "../i18n/format";
import { useLocale, useLocalePath } from "../i18n/use-locale";
import { termPath } from "../http/paths";
import type { FieldErrors } from "../learning/term-form";
import { ExampleFields, TermFields } from "../learning/term-fields";
import { TermSound } from "../learning/term-sound";
import { ListenButton, useVoice } from "./listen";
import { WordStageBadge } from "./reading-ui";
import { WordFamilySection } from "./word-family";
import { InstantMeanings, type InstantMeaning } from "./instant-meanings";
import { KEY_STAGES, type SelectedWord } from "./view";

type Failure = { intent: string; errors: Record<string, string>; message: string | null } | undefined;

/** Where a panel form returns: the word in the text, its panel open; `inPlace` (set with JavaScript) keeps the scroll. */
function Position({ page, word, inPlace }: { page: number; word: number; inPlace: boolean }) {
  return (
    <>
      <input type="hidden" name="page" value={page} />
      <input type="hidden" name="word" value={word} />
      {inPlace ? <input type="hidden" name="inPlace" value="1" /> : null}
    </>
  );
}

/**
 * After a term is added from the panel with JavaScript (the page did not reload, the pressed button is gone), the focus
 * goes back to the word, so Escape, the arrow keys and 1–4 keep working.
 */
function useFocusWordAfterSave(state: string, failed: boolean, word: number) {
  const before = useRef(state);
  useEffect(() => {
    const was = before.current;
    before.current = state;
    if (was !== "idle" && state === "idle" && !failed)
      document.getElementById(`w-${word}`)?.focus({ preventScroll: true });
  }, [state, failed, word]);
}

/**
 * The panel of one word: its term with the four stages (keys 1–4), or the dictionaries' meanings (one press adds the
 * term) and a prefilled "add term" form whose example is the sentence the word appeared in; and "ignore" (known) or
 * "stop ignoring". Listen buttons when the browser has a voice; the term's own sound, when it has one. With JavaScript the adding forms are a fetcher's: the
 * panel updates in place.
 */
export function WordPanel({
  selected,
  language,
  page,
  action,
  closeLink,
  failure,
  inPlace,
  dictionary,
  meanings,
}: {
  selected: SelectedWord;
  language: string;
  page: number;
  action: string;
  closeLink: string;
  failure: Failure;
  inPlace: boolean;
  dictionary: string | null;
  /** The dictionaries' glosses for a new word (instant-meanings.tsx), each a button that adds the term. */
  meanings: InstantMeaning[];
}) {
  const { t } = useTranslation("reading");
  const to = useLocalePath();
  const [open, close] = quoteMarks(useLocale());
  const voice = useVoice(language);
  const adding = useFetcher<Failure>({ key: `word-panel-add-${selected.word}` });
  const pending = adding.state !== "idle";
  const added = adding.data ?? failure;
  useFocusWordAfterSave(adding.state, !!adding.data, selected.word);
  const errors = added?.intent === "addTerm" ? (added.errors as FieldErrors) : undefined;
  const { term } = selected;
  return (
    <aside className="word-panel" id="word-panel" aria-labelledby="word-panel-title">
      {/* The way out first in sight: on a phone the panel is a bottom sheet whose end may be scrolled away. */}
      <div className="word-panel-head">
        <h2 id="word-panel-title" tabIndex={-1}>
          <span lang={language}>{selected.text}</span> <WordStageBadge stage={selected.stage} />
        </h2>
        <Link to={closeLink} preventScrollReset className="word-panel-close">
          {t("panel.close")}
        </Link>
      </div>
      <p className="word-panel-sentence">
        {open}
        <span lang={language}>{selected.sentence}</span>
        {close}
      </p>
      {added?.message ? (
        <p className="error-text" role="alert">
          {added.message}
        </p>
      ) : null}
      {!term && meanings.length > 0 ? (
        <adding.Form method="post" action={action} preventScrollReset aria-busy={pending}>
          <Position page={page} word={selected.word} inPlace={inPlace} />
          <input type="hidden" name="intent" value="addTerm" />
          <input type="hidden" name="text" value={selected.text} />
          <input type="hidden" name="reading" value={selected.reading ?? ""} />
          <input type="hidden" name="sentence" value={selected.sentence} />
          <InstantMeanings
            entries={meanings}
            textLanguage={language}
            pending={pending ? String(adding.formData?.get("choice") ?? "") || "-" : null}
          />
        </adding.Form>
      ) : null}
      {dictionary ? (
        <p>
          <a href={dictionary} target="_blank" rel="noopener noreferrer" className="dictionary-link">
            {t("panel.dictionary")}
          </a>
        </p>
      ) : null}
      {voice ? (
        <p className="word-panel-listen">
          <ListenButton text={selected.text} voice={voice} label={t("panel.listenWord")} />{" "}
          <ListenButton text={selected.sentence} voice={voice} label={t("panel.listenSentence")} />
        </p>
      ) : null}
      {selected.family ? (
        <WordFamilySection
          family={selected.family}
          word={selected}
          termId={term?.id ?? null}
          language={language}
          action={action}
          page={page}
          inPlace={inPlace}
        />
      ) : null}
      {term ? (
        <>
          <p>
            <Link to={to(termPath(term.id))} lang={language}>
              {term.text}
            </Link>
            {term.reading ? <span lang={language}> ({term.reading})</span> : null}
            {term.meaning ? ` — ${term.meaning}` : null}
          </p>
          <TermSound src={term.sound ?? null} />
          <Form method="post" action={action} preventScrollReset className="stage-buttons">
            <Position page={page} word={selected.word} inPlace={inPlace} />
            <input type="hidden" name="intent" value="stage" />
            <input type="hidden" name="termId" value={term.id} />
            <fieldset>
              <legend>{t("panel.setStage")}</legend>
              {KEY_STAGES.map((stage, index) => (
                <button
                  key={stage}
                  type="submit"
                  name="stage"
                  value={stage}
                  className={`button button-small ${stage === term.stage ? "" : "button-secondary"}`}
                  aria-pressed={stage === term.stage}
                  aria-keyshortcuts={String(index + 1)}
                >
                  {index + 1} · {t(`stages.${stage}`)}
                </button>
              ))}
            </fieldset>
          </Form>
        </>
      ) : (
        <>
          <adding.Form method="post" action={action} preventScrollReset className="stack" aria-busy={pending}>
            <Position page={page} word={selected.word} inPlace={inPlace} />
            <input type="hidden" name="intent" value="addTerm" />
            <h3>{t(meanings.length > 0 ? "panel.ownMeaning" : "panel.addTerm")}</h3>
            <TermFields
              values={{ text: selected.text, reading: selected.reading }}
              errors={errors}
              language={language}
              more={<ExampleFields values={{ sentence: selected.sentence }} errors={errors} language={language} />}
            />
            <button type="submit" className="button" disabled={pending}>
              {t("panel.addTerm")}
            </button>
          </adding.Form>
          <Form method="post" action={action} preventScrollReset>
            <Position page={page} word={selected.word} inPlace={inPlace} />
            <input type="hidden" name="text" value={selected.text} />
            {selected.stage === "ignored" ? (
              <button type="submit" name="intent" value="unignore" className="button button-secondary">
                {t("panel.unignore")}
              </button>
            ) : (
              <button type="submit" name="intent" value="ignore" className="button button-secondary">
                {t("panel.ignore")}
              </button>
            )}
          </Form>
        </>
      )}
      {inPlace ? <p className="hint panel-keys">{t("panel.keys")}</p> : null}
    </aside>
  );
}
