import { z } from "zod";
import { formFields, parseFields, trimmed } from "../http/intents.server";
import { isOptionalPartOfSpeech, type OptionalPartOfSpeech } from "./vocabulary";

/** The longest note a term keeps, in characters (the form and the import check it alike). */
export const NOTES_MAX_LENGTH = 2000;

/** Field errors as translation keys in the `learning` namespace. */
export type FieldErrors = Partial<
  Record<"text" | "reading" | "meaning" | "partOfSpeech" | "notes" | "sentence" | "translation", string>
>;

export type ParsedTerm = {
  text: string;
  reading: string;
  meaning: string;
  partOfSpeech: OptionalPartOfSpeech;
  notes: string;
};

/** The term fields of a form (messages are keys of the `learning` namespace). */
export const termFieldsSchema = {
  text: trimmed()
    .transform((value) => value.replace(/\s+/g, " "))
    .pipe(z.string().min(1, "errors.textRequired").max(200, "errors.textTooLong")),
  /** Furigana, pinyin or a pronunciation, apart from the meaning. */
  reading: trimmed()
    .transform((value) => value.replace(/\s+/g, " "))
    .pipe(z.string().max(200, "errors.readingTooLong")),
  meaning: trimmed().pipe(z.string().max(500, "errors.meaningTooLong")),
  // Optional: "" when not given; anything else must come from the list.
  partOfSpeech: trimmed().pipe(
    z.custom<OptionalPartOfSpeech>((value) => isOptionalPartOfSpeech(value), "errors.partOfSpeechRequired"),
  ),
  notes: trimmed().pipe(z.string().max(NOTES_MAX_LENGTH, "errors.notesTooLong")),
};

const exampleFields = {
  sentence: trimmed().pipe(z.string().max(500, "errors.sentenceTooLong")),
  translation: trimmed().pipe(z.string().max(500, "errors.translationTooLong")),
};

/** An example sentence, or null when none is given; `required` when the form is only about the example. */
export function exampleSchema(required: boolean) {
  return z
    .object(exampleFields)
    .superRefine(({ sentence, translation }, context) => {
      if (!sentence && (required || translation))
        context.addIssue({ code: "custom", path: ["sentence"], message: "errors.sentenceRequired" });
    })
    .transform(({ sentence, translation }) => (sentence ? { sentence, translation } : null));
}

/** A new term: its fields and an optional example, checked together (all field errors at once). */
export const termWithExampleSchema = z
  .object({ ...termFieldsSchema, ...exampleFields })
  .superRefine(({ sentence, translation }, context) => {
    if (!sentence && translation)
      context.addIssue({ code: "custom", path: ["sentence"], message: "errors.sentenceRequired" });
  })
  .transform(({ sentence, translation, ...term }) => ({
    term: term as ParsedTerm,
    example: sentence ? { sentence, translation } : null,
  }));

/** The term fields of a form, checked on the server. */
export function parseTermFields(
  form: FormData,
): { value: ParsedTerm; errors: null } | { value: null; errors: FieldErrors } {
  return parseFields(z.object(termFieldsSchema), formFields(form));
}

/** An example sentence; `required` when the form is only about the example. */
export function parseExample(
  form: FormData,
  required: boolean,
): { value: { sentence: string; translation: string } | null; errors: FieldErrors | null } {
  return parseFields(exampleSchema(required), formFields(form));
}
