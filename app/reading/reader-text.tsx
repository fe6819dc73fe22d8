import { useEffect, useEffectEvent, useRef, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { unpackRuby, type Ruby } from "./readings";
import type { ViewPiece } from "./view";
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
 * after the word's paragraph); with JavaScript the panel opens in place and the arrow keys move between words. Without
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
  const openWord = useEffectEvent((href: string) => navigate(href, { preventScrollReset: true }));
  const interactive = !!wordLink;

  // Listeners on the text rather than on each of its hundreds of words.
  useEffect(() => {
    const element = root.current;
    if (!element || !interactive) return;
    const open = (event: MouseEvent) => {
      const link = (event.target as HTMLElement).closest<HTMLAnchorElement>("a.word");
      if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      // Without the anchor: the page stays where it is and the panel opens below the paragraph.
      void openWord(link.getAttribute("href")!.replace(/#.*$/, ""));
    };
    const move = (event: KeyboardEvent) => {
      keyDown(event);
      if (event.defaultPrevented || (event.key !== "ArrowRight" && event.key !== "ArrowLeft")) return;
      const target = event.target as HTMLElement;
      if (!target.matches("a.word")) return;
      const links = [...element.querySelectorAll<HTMLAnchorElement>("a.word")];
      const rtl = getComputedStyle(element).direction === "rtl";
      const step = (event.key === "ArrowRight") !== rtl ? 1 : -1;
      const next = links[links.indexOf(target as HTMLAnchorElement) + step];
      if (next) {
        event.preventDefault();
        next.focus();
      }
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
