import { useEffect, useEffectEvent, useRef, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { unpackRuby, type Ruby } from "./readings";
import type { ViewPiece } from "./view";
import { focusIntoPanel, type WordOpening } from "./panel-focus";
import { textDirection } from "../learning/vocabulary";

/**
 * A word with its readings over it: the runs that have one in a `<ruby>` with an `<rt>` after each (one ruby per
 * stretch of them, the lightest markup), the rest as plain text.
 */
function WithReadings({ ruby }: { ruby: Ruby }) {
  const out: ReactNode[] = [];
  for (let i = 0; i < ruby.length;) {
    if (!ruby[i]![1]) {
      out.push(ruby[i++]![0]);
      continue;
    }
    const start = i;
    const inner: ReactNode[] = [];
    for (; i < ruby.length && ruby[i]![1]; i++) inner.push(ruby[i]![0], <rt key={i}>{ruby[i]![1]}</rt>);
    out.push(<ruby key={start}>{inner}</ruby>);
  }
  return out;
}

/**
 * The words of a page, each marked with its stage. With `wordLink`, each word is a link that opens its panel (shown
 * after the word's paragraph); with JavaScript the panel opens in place and the arrow keys move between words (and the
 * panel with them when it is open). Without
 * `wordLink` (the demo) the words are plain text.
 */
export function ReaderText({
  language,
  paragraphs,
  selectedWord,
  wordLink,
  panel,
  onKey,
}: {
  language: string;
  paragraphs: ViewPiece[][];
  selectedWord?: number | null;
  wordLink?: (word: number) => string;
  panel?: ReactNode;
  onKey?: (event: KeyboardEvent) => void;
}) {
  const navigate = useNavigate();

  const root = useRef<HTMLDivElement>(null);
  const keyDown = useEffectEvent((event: KeyboardEvent) => onKey?.(event));
  const go = (href: string, focus: WordOpening["focus"]) =>
    navigate(href, { preventScrollReset: true, state: { focus } satisfies WordOpening });
  const openWord = useEffectEvent((href: string) => go(href, "panel"));
  const moveTo = useEffectEvent((href: string) => go(href, "word"));
  const openWordNow = useEffectEvent(() => selectedWord ?? null);
  const interactive = !!wordLink;

  // Listeners on the text rather than on each of its hundreds of words.
  useEffect(() => {
    const element = root.current;
    if (!element || !interactive) return;
    const open = (event: MouseEvent) => {
      const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a.word");
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      // The open word again (Enter after ← →): into its panel.
      if (Number(link.dataset.word) === openWordNow()) return focusIntoPanel();
      // Without the anchor: the page stays where it is and the panel opens below the paragraph.
      void openWord(link.getAttribute("href")!.replace(/#.*$/, ""));
    };
    // ← → move the focus between words; while a panel is open they open the next word's (from the word or from the
    // panel, outside its fields), the focus staying on the word.
    const move = (event: KeyboardEvent) => {
      keyDown(event);
      if (event.defaultPrevented || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const target = event.target as HTMLElement;
      const shown = openWordNow();
      const fromPanel = shown !== null && !!target.closest(".word-panel") && !target.matches("input, textarea, select");
      if (!target.matches("a.word") && !fromPanel) return;
      const links = [...element.querySelectorAll<HTMLAnchorElement>("a.word")];
      const from = fromPanel ? element.querySelector<HTMLAnchorElement>(`#w-${shown}`) : (target as HTMLAnchorElement);
      const rtl = getComputedStyle(element).direction === "rtl";
      const step = (event.key === "ArrowRight") !== rtl ? 1 : -1;
      const next = from && links[links.indexOf(from) + step];
      if (!next) return;
      event.preventDefault();
      if (shown === null) return next.focus();
      next.focus({ preventScroll: true });
      void moveTo(next.getAttribute("href")!.replace(/#.*$/, ""));
    };
    element.addEventListener("click", open);
    element.addEventListener("keydown", move);
    return () => {
      element.removeEventListener("click", open);
      element.removeEventListener("keydown", move);
    };
  }, [interactive]);

  const withReadings = paragraphs.some((pieces) => pieces.some((p) => typeof p !== "string" && p.ruby));
  return (
    <div
      className={withReadings ? "reader-text with-readings" : "reader-text"}
      lang={language}
      dir={textDirection(language)}
      ref={root}
    >
      {paragraphs.map((pieces, index) => (
        <div key={index}>
          <p>
            {pieces.map((piece, i) =>
              typeof piece === "string" ? (
                piece
              ) : wordLink ? (
                <a
                  key={i}
                  id={`w-${piece.word}`}
                  href={wordLink(piece.word)}
                  className={`word w-${piece.stage}`}
                  data-word={piece.word}
                  aria-describedby={`legend-${piece.stage}`}
                  aria-current={selectedWord === piece.word ? "true" : undefined}
                >
                  {piece.ruby ? <WithReadings ruby={unpackRuby(piece.ruby)} /> : piece.text}
                </a>
              ) : (
                <span key={i} className={`word w-${piece.stage}`}>
                  {piece.ruby ? <WithReadings ruby={unpackRuby(piece.ruby)} /> : piece.text}
                </span>
              ),
            )}
          </p>
          {panel && pieces.some((p) => typeof p !== "string" && p.word === selectedWord) ? panel : null}
        </div>
      ))}
    </div>
  );
}
