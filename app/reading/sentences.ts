/** A sentence of the page as the reader renders it: what is said, and where it stands (for the highlight). */
export type PageSentence = { text: string; range: Range };

/**
 * The sentences of the reader's paragraphs, in order (`Intl.Segmenter`, the text's language), each with a DOM range
 * over its words. Readings over words (`<rt>`) are not read; the word panel, rendered between paragraphs, is not
 * part of the text.
 */
export function pageSentences(root: HTMLElement, language: string): PageSentence[] {
  const segmenter = new Intl.Segmenter(language, { granularity: "sentence" });
  const sentences: PageSentence[] = [];
  for (const paragraph of root.querySelectorAll<HTMLParagraphElement>(":scope > div > p")) {
    const nodes: Text[] = [];
    const starts: number[] = [];
    let text = "";
    const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement?.closest("rt") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    while (walker.nextNode()) {
      const node = walker.currentNode as Text;
      starts.push(text.length);
      nodes.push(node);
      text += node.data;
    }
    // The text node holding the character at `offset` (at an end: the one the character before it is in).
    const place = (offset: number, end: boolean): [Text, number] => {
      let at = 0;
      for (let i = 0; i < nodes.length; i++) if (end ? starts[i]! < offset : starts[i]! <= offset) at = i;
      return [nodes[at]!, offset - starts[at]!];
    };
    for (const { segment, index } of segmenter.segment(text)) {
      const start = index + (segment.length - segment.trimStart().length);
      const end = index + segment.trimEnd().length;
      if (end <= start) continue;
      const range = document.createRange();
      range.setStart(...place(start, false));
      range.setEnd(...place(end, true));
      sentences.push({ text: text.slice(start, end), range });
    }
  }
  return sentences;
}

const HIGHLIGHT = "listen";

/** Marks the sentence being read (the CSS Custom Highlight API: no change to the page's markup); null clears it. */
export function highlightSentence(sentence: PageSentence | null): void {
  if (typeof CSS === "undefined" || !("highlights" in CSS)) return;
  if (!sentence) {
    CSS.highlights.delete(HIGHLIGHT);
    return;
  }
  CSS.highlights.set(HIGHLIGHT, new Highlight(sentence.range));
  const element = sentence.range.startContainer.parentElement;
  element?.scrollIntoView({ block: "nearest" });
}
