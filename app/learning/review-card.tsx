import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { ReviewCard } from "./review-page.server";
import { StageBadge } from "./ui";

/** The question side of a card in its mode; typed answers are sent with a GET form, so it works without JavaScript. */
export function ReviewPrompt({ card }: { card: ReviewCard }) {
  const { t } = useTranslation("learning");
  const { prompt } = card;
  return (
    <>
      <p className="eyebrow">
        {t(`partsOfSpeech.${card.partOfSpeech}`)} · <StageBadge stage={card.stage} /> ·{" "}
        <span className="review-mode">{t(`review.modes.${card.mode}`)}</span>
      </p>
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
              {card.answer ? card.answer.text : <span aria-label={t("review.gap")}>_____</span>}
            </span>
            {prompt.cloze.after}
          </p>
          {prompt.hint ? <p className="hint">{prompt.hint}</p> : null}
        </>
      ) : null}
    </>
  );
}

/** The front's action: "Show answer", or for typed answers a field and "Check". */
export function RevealAction({
  card,
  shortcuts,
  showAnswer,
}: {
  card: ReviewCard;
  shortcuts: boolean;
  showAnswer: RefObject<HTMLAnchorElement | null>;
}) {
  const { t } = useTranslation("learning");
  if (card.mode === "typed") {
    return (
      <Form method="get" replace className="typed-answer">
        <input type="hidden" name="reveal" value="1" />
        <label htmlFor="typed-answer">{t("review.typeTheTerm")}</label>
        <input
          id="typed-answer"
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
      </Form>
    );
  }
  return (
    <>
      <p>{t(card.mode === "forward" ? "review.question" : `review.questions.${card.mode}`)}</p>
      <Link
        className="button"
        to="?reveal=1"
        replace
        ref={showAnswer}
        autoFocus
        aria-keyshortcuts={shortcuts ? "Space Enter" : undefined}
      >
        {t("review.show")}
      </Link>
    </>
  );
}

/** The answer side: the term (for modes that asked for it), its meaning, notes and examples, the typed answer's check. */
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
      {answer.typed ? (
        <p className={`answer-check answer-${answer.typed.check}`}>
          {t(`review.checks.${answer.typed.check}`, { answer: answer.typed.given })}
        </p>
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
