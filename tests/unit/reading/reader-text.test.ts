import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { textDirection } from "#app/learning/vocabulary.ts";
import { ReaderText } from "#app/reading/reader-text.tsx";

const rendered = (language: string, word: string) => {
  const router = createMemoryRouter([
    { path: "/", element: createElement(ReaderText, { language, paragraphs: [[word]] }) },
  ]);
  return renderToString(createElement(RouterProvider, { router }));
};

describe("the reader's text direction", () => {
  it("renders Arabic and Hebrew texts right to left", () => {
    expect(rendered("ar", "مرحبا")).toMatch(/class="reader-text" lang="ar" dir="rtl"/);
    expect(rendered("he", "שלום")).toMatch(/lang="he" dir="rtl"/);
  });

  it("renders other texts left to right", () => {
    expect(rendered("ja", "こんにちは")).toMatch(/lang="ja" dir="ltr"/);
    expect(textDirection("fa")).toBe("rtl");
    expect(textDirection("en")).toBe("ltr");
  });
});
