import { useCallback, useEffect, type RefObject } from "react";
import { useNavigate, useSubmit } from "react-router";

const INTERACTIVE = "a, button, input, select, textarea, summary, [contenteditable], [role=button], [role=link]";

/**
 * Whether a key press belongs to the review: only when the focus is on the page itself or on the card (its answer
 * included), never on a link, button or field, so Enter and Space keep doing what they do there (WCAG 2.1.4).
 */
export function isReviewKeyTarget(target: EventTarget | null, card: HTMLElement | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target === document.body || target === document.documentElement) return true;
  return !!card && card.contains(target) && !target.closest(INTERACTIVE);
}

/**
 * The review's keys, wherever the card comes from (the server or the device): Space or Enter calls `reveal` on the
 * front, 1-4 call `grade` with the grade's index on the back; nothing happens while `enabled` is false.
 */
export function useReviewKeys({
  enabled,
  revealed,
  card,
  reveal,
  grade,
}: {
  enabled: boolean;
  revealed: boolean;
  card: RefObject<HTMLElement | null>;
  reveal: () => void;
  grade: (index: number) => void;
}) {
  useEffect(() => {
    if (!enabled) return;
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
      if (!isReviewKeyTarget(event.target, card.current)) return;
      if (!revealed && (event.key === " " || event.key === "Enter")) {
        event.preventDefault();
        reveal();
        return;
      }
      const index = ["1", "2", "3", "4"].indexOf(event.key);
      if (revealed && index >= 0) {
        event.preventDefault();
        grade(index);
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [enabled, revealed, card, reveal, grade]);
}

/** Space or Enter reveals the answer, 1-4 grade it; nothing happens while `enabled` is false (the learner's setting). */
export function useReviewShortcuts({
  enabled,
  revealed,
  revealTo,
  card,
  gradeForm,
  grades,
}: {
  enabled: boolean;
  revealed: boolean;
  /** Where the answer is: the front's reveal form as a URL ("?at=…&reveal=1"). */
  revealTo: string;
  card: RefObject<HTMLElement | null>;
  gradeForm: RefObject<HTMLFormElement | null>;
  grades: readonly string[];
}) {
  const navigate = useNavigate();
  const submit = useSubmit();
  const reveal = useCallback(() => void navigate(revealTo, { replace: true }), [navigate, revealTo]);
  const grade = useCallback(
    (index: number) => {
      const name = grades[index];
      if (!name || !gradeForm.current) return;
      const formData = new FormData(gradeForm.current);
      formData.set("grade", name);
      void submit(formData, { method: "post" });
    },
    [grades, gradeForm, submit],
  );
  useReviewKeys({ enabled, revealed, card, reveal, grade });
}
