import { useEffect, useRef } from "react";
import { useLocation, useNavigation } from "react-router";

/**
 * The navigation state of a word opened with JavaScript: by a click or Enter the focus goes into the panel; by ← → it
 * stays on the word, so the arrows keep moving. The last navigation's wins when one interrupts another.
 */
export type WordOpening = { focus: "panel" | "word" };

const isTouchScreen = () => matchMedia("(pointer: coarse)").matches;

/** Space kept between the word and the edges of the part of the window it shows in. */
const MARGIN = 16;

/**
 * Brings the word into the part of the window the panel leaves free: between the header and the bottom sheet on a
 * phone, between the header and the window's bottom beside the text. Nothing moves when it is there already.
 */
export function keepInSight(word: HTMLElement, panel: HTMLElement | null) {
  const header = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
  const sheet = panel?.getBoundingClientRect();
  const asSheet = !!sheet && sheet.bottom >= window.innerHeight - 1 && sheet.left <= 1;
  const top = Math.max(header, 0) + MARGIN;
  const bottom = (asSheet ? sheet.top : window.innerHeight) - MARGIN;
  const box = word.getBoundingClientRect();
  if (box.top >= top && box.bottom <= bottom) return;
  // The middle of the free part, or just under the header when it is too small for that.
  const to = Math.max(top, (top + bottom - box.height) / 2);
  window.scrollBy({ top: box.top - to });
}

/**
 * Moves the focus into the open panel: to its first meaning (Enter adds the term with it), else to the meaning field;
 * on a touch screen to the panel's title, so no soft keyboard opens on every tap.
 */
export function focusIntoPanel() {
  const target = isTouchScreen()
    ? null
    : (document.querySelector<HTMLElement>("#word-panel .meaning-button") ??
      document.querySelector<HTMLElement>("#word-panel #meaning"));
  (target ?? document.getElementById("word-panel-title"))?.focus({ preventScroll: true });
}

/**
 * The focus and the scroll of the reader's word panel, with JavaScript:
 * - a word opened by a click or Enter: the focus goes into the panel (focusIntoPanel); opened with ← →, it stays on
 *   the word, and Enter on it goes into the panel then;
 * - the word is kept in sight above the bottom sheet on a phone;
 * - closed: the focus goes back to the word; and when a form of the panel or its toast took the focus away (its button
 *   went with the update), it goes back to the word too, so Escape, ← → and 1–4 keep working.
 */
export function usePanelFocus(openWord: number | null) {
  const location = useLocation();
  const navigation = useNavigation();
  const previousWord = useRef<number | null>(null);
  // A new object with each navigation that sets one: the effect runs once per such navigation.
  const opening = location.state as WordOpening | null;

  useEffect(() => {
    const before = previousWord.current;
    previousWord.current = openWord;
    if (openWord === null) {
      if (before !== null) document.getElementById(`w-${before}`)?.focus({ preventScroll: true });
      return;
    }
    const word = document.getElementById(`w-${openWord}`);
    if (openWord !== before && word) keepInSight(word, document.getElementById("word-panel"));
    // A form's answer (no state) leaves the focus alone; a page opened on a word puts it into the panel.
    const focus = opening?.focus ?? (openWord !== before ? "panel" : null);
    if (focus === "word") word?.focus({ preventScroll: true });
    else if (focus === "panel") focusIntoPanel();
  }, [openWord, opening]);

  useEffect(() => {
    if (navigation.state !== "idle" || openWord === null) return;
    const focused = document.activeElement;
    if (!focused || focused === document.body) document.getElementById(`w-${openWord}`)?.focus({ preventScroll: true });
  }, [navigation.state, openWord]);
}
