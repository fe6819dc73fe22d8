import { useRef, type RefObject } from "react";
import { TermSound } from "./term-sound";
import { useTranslation } from "../i18n/use-translation";
import { Form, Link } from "react-router";
import { useLocalePath } from "../i18n/use-locale";
import { termPath } from "../http/paths";
import type { ReviewCard } from "./review-page.server";
import { specialLetters } from "./special-letters";
import { StageBadge } from "./ui";

/** The question side of a card in its mode; the cloze example's translation is shown here, once. */
export function ReviewPrompt({ card }: { card: ReviewCard }) {
  const { t } = useTranslation("learning");
  const to = useLocalePath();
  const { prompt } = card;
  return (
    <>
      <p className="eyebrow">
        {card.partOfSpeech ? <>{t(`lists:partsOfSpeech.${card.partOfSpeech}`)} · </> : null}
        <StageBadge stage={card.stage} /> · <span className="review-mode">{t(`review.modes.${card.mode}`)}</span>
      </p>
      {card.clozeMissing ? (
        <p className="notice review-cloze-missing">
          {t("review.clozeMissing")} <Link to={`${to(termPath(card.id))}#add-example`}>{t("review.addExample")}</Link>
        </p>
      ) : null}
      {prompt.text !== null ? (
        <p className="review-term" lang={card.language}>
          {prompt.text}
        </p>
      ) : null}
      {prompt.meaning !== null ? <p className="review-term review-meaning">{prompt.meaning}</p> : null}
      {prompt.cloze ? (
        <>
          <p className="review-cloze" lang={card.language}>
            {prompt.cloze.before}
            <span className="cloze-gap">
              {card.answer ? card.answer.gapAnswer : <span aria-label={t("review.gap")}>_____</span>}
            </span>
            {prompt.cloze.after}
          </p>
          {prompt.hint ? <p className="hint">{prompt.hint}</p> : null}
        </>
      ) : null}
    </>
  );
}

/** The front's question (for the modes answered by revealing), on the card above the action bar. */
export function RevealQuestion({ card }: { card: ReviewCard }) {
  const { t } = useTranslation("learning");
  if (card.mode === "typed") return null;
  return (
    <p className="review-question">
      {t(card.mode === "forward" ? "review.question" : `review.questions.${card.mode}`)}
    </p>
  );
}

/** A grade button's label: its key (where shortcuts are on; hidden on touch screens), name and next interval. */
export function GradeLabel({
  name,
  index,
  keys,
  interval,
}: {
  name: string;
  index: number;
  keys: boolean;
  interval: string;
}) {
  const { t } = useTranslation("learning");
  return (
    <>
      <span className="grade-name">
        {keys ? <span className="grade-key">{index + 1} · </span> : null}
        {t(`review.grades.${name}`)}
      </span>{" "}
      <span className="grade-interval">{interval}</span>
    </>
  );
}

/**
 * The front's action: "Show answer" (a button: Space and Enter press it), or for typed answers a field, the study
 * language's special letters (with JavaScript) and "Check". Both are GET forms, so they work without JavaScript.
 */
export function RevealAction({
  card,
  at,
  shortcuts,
  hydrated,
  showAnswer,
}: {
  card: ReviewCard;
  at: number;
  shortcuts: boolean;
  hydrated: boolean;
  showAnswer: RefObject<HTMLButtonElement | null>;
}) {
  const { t } = useTranslation("learning");
  const field = useRef<HTMLInputElement>(null);
  if (card.mode === "typed") {
    return (
      <Form method="get" replace className="typed-answer">
        <input type="hidden" name="reveal" value="1" />
        <input type="hidden" name="at" value={at} />
        <label htmlFor="typed-answer">{t("review.typeTheTerm")}</label>
        <input
          id="typed-answer"
          ref={field}
          name="answer"
          lang={card.language}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={200}
          autoFocus
        />
        <button type="submit" className="button">
          {t("review.check")}
        </button>
        {hydrated ? <SpecialLetters language={card.language} field={field} /> : null}
      </Form>
    );
  }
  return (
    <Form method="get" replace className="reveal">
      <input type="hidden" name="at" value={at} />
      <button
        type="submit"
        name="reveal"
        value="1"
        className="button"
        ref={showAnswer}
        autoFocus
        aria-keyshortcuts={hydrated && shortcuts ? "Space Enter" : undefined}
      >
        {t("review.show")}
      </button>
    </Form>
  );
}

/** Buttons that type the study language's special letters into the typed answer's field (with JavaScript). */
export function SpecialLetters({ language, field }: { language: string; field: RefObject<HTMLInputElement | null> }) {
  const { t } = useTranslation("learning");
  const letters = specialLetters(language);
  if (letters.length === 0) return null;
  const insert = (letter: string) => {
    const input = field.current;
    if (!input) return;
    const start = input.selectionStart ?? input.value.length;
    const end = input.selectionEnd ?? start;
    input.setRangeText(letter, start, end, "end");
    input.focus();
  };
  return (
    <div className="special-letters" role="group" aria-label={t("review.specialLetters")}>
      {letters.map((letter) => (
        <button
          key={letter}
          type="button"
          className="button button-small button-secondary"
          lang={language}
          aria-label={t("review.insertLetter", { letter })}
          onClick={() => insert(letter)}
        >
          {letter}
        </button>
      ))}
    </div>
  );
}

/** The answer side: the term (for modes that asked for it), the typed answer's check and diff, meaning, notes, examples. */
export function ReviewAnswer({ card }: { card: ReviewCard }) {
  const { t } = useTranslation("learning");
  const answer = card.answer!;
  return (
    <>
      {card.mode !== "forward" ? (
        <p className="review-term" lang={card.language}>
          {answer.text}
        </p>
      ) : null}
      {answer.reading ? (
        <p className="review-reading" lang={card.language}>
          {answer.reading}
        </p>
      ) : null}
      <TermSound src={answer.sound} autoPlay={answer.autoplay} />
      {answer.typed ? (
        <>
          <p className={`answer-check answer-${answer.typed.check}`}>
            {t(`review.checks.${answer.typed.check}`, { answer: answer.typed.given })}
          </p>
          {answer.typed.check !== "exact" && answer.typed.given ? (
            <>
              <p className="typed-diff" lang={card.language}>
                {answer.typed.diff.map((part, index) =>
                  part.kind === "same" ? (
                    <span key={index}>{part.text}</span>
                  ) : part.kind === "missing" ? (
                    <ins key={index}>{part.text}</ins>
                  ) : (
                    <del key={index}>{part.text}</del>
                  ),
                )}
              </p>
              <p className="hint">{t("review.diffLegend")}</p>
            </>
          ) : null}
        </>
      ) : null}
      {card.mode !== "reverse" && card.mode !== "typed" ? <p className="lead">{answer.meaning}</p> : null}
      {answer.notes ? <p>{answer.notes}</p> : null}
      {answer.examples.length > 0 ? (
        <ul className="examples">
          {answer.examples.map((example) => (
            <li key={example.id}>
              <span lang={card.language}>{example.sentence}</span>
              {example.translation ? <span className="hint"> — {example.translation}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
