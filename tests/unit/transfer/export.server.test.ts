import { stringify } from "csv-stringify/sync";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { spreadsheetSafe } from "#app/transfer/csv-cells.ts";
import {
  documentJson,
  reviewRecords,
  reviewsCsv,
  termRecord,
  termsCsv,
  type ExportDocument,
} from "#app/transfer/export.server.ts";

const STAGES = ["tolearn", "inprogress", "learned", "needsreview"] as const;
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();

/** An export document of `count` terms whose texts, meanings and examples come from `words` (any characters). */
function documentOf(count: number, words: string[], billing = false): ExportDocument {
  const word = (n: number) => words[n % words.length] ?? "";
  return {
    format: "polyglot-export",
    version: 1,
    exportedAt: at(0),
    terms: Array.from({ length: count }, (_, n) => ({
      language: n % 3 === 0 ? "ja" : "de",
      text: `${word(n)}${n}`,
      reading: n % 3 === 0 ? word(n + 4) : "",
      meaning: n % 4 === 0 ? "" : word(n + 1),
      partOfSpeech: n % 2 === 0 ? "noun" : "",
      notes: n % 5 === 0 ? `${word(n + 2)}\n${word(n + 3)}` : "",
      stage: STAGES[n % 4]!,
      createdAt: at(n),
      updatedAt: at(n + 1),
      card: {
        due: at(n + 2),
        stability: n / 7,
        difficulty: 5.5,
        elapsedDays: n % 9,
        scheduledDays: n % 11,
        learningSteps: 0,
        reps: n % 4,
        lapses: 0,
        state: n % 4,
        lastReview: n % 2 === 0 ? null : at(n),
      },
      examples:
        n % 3 === 0
          ? [
              {
                sentence: `${word(n)} "${word(n + 4)}", =1+1`,
                translation: n % 2 ? word(n + 5) : null,
                createdAt: at(n),
              },
            ]
          : [],
      reviews: Array.from({ length: n % 4 }, (__, r) => ({
        rating: (r % 4) + 1,
        state: r % 4,
        reviewedAt: at(n + r),
        scheduledDays: r,
      })),
    })),
    knownWords: Array.from({ length: count }, (_, n) => ({
      language: n % 3 === 0 ? "ja" : "de",
      word: `${word(n).toLowerCase()}${n}`,
      markedAt: at(n),
    })),
    soundsLeftOut: count % 7,
    plan: billing
      ? {
          plan: "monthly",
          period: "month",
          status: "active",
          amount: 500,
          currency: "eur",
          currentPeriodEnd: at(9),
          paymentFailed: false,
          stripeCustomer: "cus_1",
          stripeSubscription: "sub_1",
          updatedAt: at(3),
        }
      : null,
    payments: billing
      ? [{ for: "pledge", amount: 2500, refunded: 0, currency: "eur", paidAt: at(2), stripePaymentIntent: "pi_1" }]
      : [],
    pledges: billing ? [{ email: "a@example.test", amount: 2500, refunded: 0, currency: "eur", createdAt: at(2) }] : [],
  };
}

const words = fc.array(fc.string({ unit: "binary", maxLength: 12 }), { minLength: 1, maxLength: 8 });

describe("the export written in parts", () => {
  it("writes the JSON document exactly as JSON.stringify(document, null, 2), in slices of terms", async () => {
    for (const count of [0, 1, 2, 499, 500, 501, 1_001]) {
      const document = documentOf(count, ["Haus", 'say "hi"', "line\nbreak", "🦉"], count % 2 === 1);
      const parts = await documentJson(document);
      expect(parts.join(""), `${count} terms`).toBe(JSON.stringify(document, null, 2));
      expect(parts.length, `${count} terms`).toBe(count === 0 ? 1 : Math.ceil(count / 500) + 2);
    }
    await fc.assert(
      fc.asyncProperty(words, fc.integer({ min: 0, max: 40 }), fc.boolean(), async (list, count, billing) => {
        const document = documentOf(count, list, billing);
        expect((await documentJson(document)).join("")).toBe(JSON.stringify(document, null, 2));
      }),
      { numRuns: 200 },
    );
  });

  it("writes the terms' and the reviews' CSV as one call of the writer would, each slice under 501 rows", async () => {
    await fc.assert(
      fc.asyncProperty(words, fc.constantFrom(0, 1, 3, 500, 501, 1_200), async (list, count) => {
        const document = documentOf(count, list);
        const safe = (row: unknown[]) => row.map((cell) => (typeof cell === "string" ? spreadsheetSafe(cell) : cell));
        const terms = await termsCsv(document);
        const termRows = document.terms.map((term) => safe(termRecord(term)));
        expect(terms.join("")).toBe(stringify([header(terms[0]!), ...termRows]));
        expect(terms.length).toBe(1 + Math.ceil(count / 500));
        const reviews = await reviewsCsv(document);
        const reviewRows = document.terms.flatMap((term) => reviewRecords(term).map(safe));
        expect(reviews.join("")).toBe(stringify([header(reviews[0]!), ...reviewRows]));
        expect(reviews.length).toBe(1 + Math.ceil(reviewRows.length / 500));
      }),
      { numRuns: 30 },
    );
  });
});

/** The names of a CSV header line. */
const header = (line: string) => line.trim().split(",");
