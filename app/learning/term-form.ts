import { isOptionalPartOfSpeech, type OptionalPartOfSpeech } from "./vocabulary";

/** Field errors as translation keys in the `learning` namespace. */
export type FieldErrors = Partial<
  Record<"text" | "meaning" | "partOfSpeech" | "notes" | "sentence" | "translation", string>
>;

const field = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

export type ParsedTerm = { text: string; meaning: string; partOfSpeech: OptionalPartOfSpeech; notes: string };

/** The term fields of a form, checked on the server. */
export function parseTermFields(
  form: FormData,
): { value: ParsedTerm; errors: null } | { value: null; errors: FieldErrors } {
  const text = field(form, "text").replace(/\s+/g, " ");
  const meaning = field(form, "meaning");
  const partOfSpeech = field(form, "partOfSpeech");
  const notes = field(form, "notes");
  const errors: FieldErrors = {};
  if (!text) errors.text = "errors.textRequired";
  else if (text.length > 200) errors.text = "errors.textTooLong";
  if (meaning.length > 500) errors.meaning = "errors.meaningTooLong";
  // Optional: "" when not given; anything else must come from the list.
  if (!isOptionalPartOfSpeech(partOfSpeech)) errors.partOfSpeech = "errors.partOfSpeechRequired";
  if (notes.length > 2000) errors.notes = "errors.notesTooLong";
  if (Object.keys(errors).length > 0) return { value: null, errors };
  return { value: { text, meaning, partOfSpeech: partOfSpeech as OptionalPartOfSpeech, notes }, errors: null };
}

/** An example sentence; `required` when the form is only about the example. */
export function parseExample(
  form: FormData,
  required: boolean,
): { value: { sentence: string; translation: string } | null; errors: FieldErrors | null } {
  const sentence = field(form, "sentence");
  const translation = field(form, "translation");
  const errors: FieldErrors = {};
  if (!sentence && (required || translation)) errors.sentence = "errors.sentenceRequired";
  if (sentence.length > 500) errors.sentence = "errors.sentenceTooLong";
  if (translation.length > 500) errors.translation = "errors.translationTooLong";
  if (Object.keys(errors).length > 0) return { value: null, errors };
  return { value: sentence ? { sentence, translation } : null, errors: null };
}
