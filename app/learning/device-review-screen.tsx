import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "../i18n/use-translation";
import type { OfflineCard } from "./offline-review.server";
import { GradeLabel, ReviewAnswer, ReviewPrompt, RevealQuestion, SpecialLetters } from "./review-card";
import { charDiff, checkAnswer, SUGGESTED_GRADE } from "./review-modes";
import { useReviewKeys } from "./review-shortcuts";
import type { GradeName } from "./stage";
import { cardKey, type DeviceReview } from "./device-review";

const GRADE_NAMES: GradeName[] = ["again", "hard", "good", "easy"];

/**
 * The focused review screen (ADR 111) for a card on the device: progress, the card, the action bar. The answer shows
 * and the next card follows without asking the server (ADR 117). `done` counts the cards graded before this screen.
 */
export function DeviceReviewScreen({
  review,
  card,
  shortcuts,
  done,
  status,
  setting,
  goal,
  typed = null,
}: {
  review: DeviceReview;
  card: OfflineCard;
  shortcuts: boolean;
  done: number;
  status?: ReactNode;
  /** The shortcut setting (online), else the keys as text. */
  setting?: ReactNode;
  /** Online: the day's goal as the server last counted it. */
  goal?: ReactNode;
  /** What the learner had typed on the server's card when the device took over (that card only). */
  typed?: { key: string; value: string } | null;
}) {
  const { t } = useTranslation("learning");
  const dueNow = review.cards.filter((candidate) => candidate.due <= review.now || candidate === card).length;
  return (
    <section className="review-page review-focus" data-review="device">
      <h1 className="visually-hidden">{t("review.title")}</h1>
      {status}
      <div className="review-progress">
        <progress value={done} max={done + review.cards.length} aria-label={t("review.progressLabel")} />
        <p className="hint">{t("review.remaining", { count: dueNow })}</p>
        {goal}
      </div>
      <p className="visually-hidden" role="status">
        {t("review.announceCard", {
          text: card.prompt.text ?? card.prompt.meaning ?? t(`review.modes.${card.mode}`),
        })}
      </p>
      {/* A card of its own per card: the answer is hidden again, whatever the last card showed. */}
      <DeviceCard
        key={cardKey(card)}
        card={card}
        shortcuts={shortcuts}
        grade={review.grade}
        typedBefore={typed?.key === cardKey(card) ? typed.value : ""}
      />
      {setting ?? (shortcuts ? <p className="hint review-keys">{t("review.keys")}</p> : null)}
    </section>
  );
}

function DeviceCard({
  card,
  shortcuts,
  grade,
  typedBefore,
}: {
  card: OfflineCard;
  shortcuts: boolean;
  grade: DeviceReview["grade"];
  typedBefore: string;
}) {
  const { t } = useTranslation("learning");
  const [revealed, setRevealed] = useState(false);
  const [typed, setTyped] = useState<string | null>(null);
  const [grading, setGrading] = useState(false);
  const answer = useRef<HTMLDivElement>(null);
  const front = useRef<HTMLButtonElement | HTMLInputElement | null>(null);
  const typedField = useRef<HTMLInputElement | null>(null);
  const cardElement = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (revealed) answer.current?.focus();
    else {
      front.current?.focus();
      // A field carried over from the server's card goes on where the learner stopped typing.
      const field = typedField.current;
      if (field && field === front.current) field.setSelectionRange(field.value.length, field.value.length);
    }
  }, [revealed]);

  const give = (name: GradeName) => {
    // One grade per card, however fast the keys come.
    if (grading) return;
    setGrading(true);
    void grade(card, name);
  };
  useReviewKeys({
    enabled: shortcuts && !grading,
    revealed,
    card: cardElement,
    reveal: () => setRevealed(true),
    grade: (index) => give(GRADE_NAMES[index]!),
  });

  const check = card.mode === "typed" && typed !== null ? checkAnswer(card.answer!.text, typed, card.language) : null;
  const shown: OfflineCard = {
    ...card,
    answer: revealed
      ? {
          ...card.answer!,
          typed: typed === null ? null : { given: typed, check: check!, diff: charDiff(card.answer!.text, typed) },
        }
      : null,
    suggested: check ? SUGGESTED_GRADE[check] : null,
  };
  return (
    <>
      <div className={revealed ? "review-card review-card-revealed" : "review-card"} ref={cardElement} tabIndex={-1}>
        <ReviewPrompt card={shown} />
        {revealed ? (
          <>
            <div className="review-answer" ref={answer} tabIndex={-1}>
              <ReviewAnswer card={shown} />
            </div>
            {shown.suggested ? (
              <p className="hint" id="suggested-grade">
                {t("review.suggested", { grade: t(`review.grades.${shown.suggested}`) })}
              </p>
            ) : null}
          </>
        ) : card.mode === "typed" ? (
          <form
            className="typed-answer"
            onSubmit={(event) => {
              event.preventDefault();
              const value = new FormData(event.currentTarget).get("answer");
              setTyped(String(value ?? "").slice(0, 200));
              setRevealed(true);
            }}
          >
            <label htmlFor="typed-answer">{t("review.typeTheTerm")}</label>
            <input
              id="typed-answer"
              ref={(element) => {
                front.current = element;
                typedField.current = element;
              }}
              name="answer"
              lang={card.language}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              maxLength={200}
              defaultValue={typedBefore}
            />
            <button type="submit" className="button">
              {t("review.check")}
            </button>
            <SpecialLetters language={card.language} field={typedField} />
          </form>
        ) : (
          <RevealQuestion card={card} />
        )}
      </div>
      <div className="review-bar">
        {revealed ? (
          <fieldset className="grades" aria-describedby={shown.suggested ? "suggested-grade" : undefined}>
            <legend className="visually-hidden">{t("review.gradeLegend")}</legend>
            {GRADE_NAMES.map((name, index) => (
              <button
                key={name}
                type="button"
                className={`button grade-button grade-${name}` + (name === shown.suggested ? " button-suggested" : "")}
                aria-keyshortcuts={shortcuts ? String(index + 1) : undefined}
                onClick={() => give(name)}
              >
                <GradeLabel name={name} index={index} keys={shortcuts} interval={card.intervals[name]} />
              </button>
            ))}
          </fieldset>
        ) : card.mode === "typed" ? null : (
          <div className="reveal">
            <button
              type="button"
              className="button"
              ref={(element) => {
                front.current = element;
              }}
              aria-keyshortcuts={shortcuts ? "Space Enter" : undefined}
              onClick={() => setRevealed(true)}
            >
              {t("review.show")}
            </button>
          </div>
        )}
      </div>
    </>
  );
}
