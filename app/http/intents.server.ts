import { data } from "react-router";
import { z } from "zod";
import { readForm } from "./request-body.server";

/**
 * One way to write a route with several forms (ADR 043): its action is a table of intents, each a zod schema for its
 * fields and a `run` for the parsed values, handed to `dispatchIntents`, which reads the body through the bounded
 * `readForm`, picks the entry named by the form's `intent` field, and answers an unknown intent and invalid fields the
 * way the route says (each route keeps its own answer: a 400 with a message, a redirect with a toast, …).
 */

// Zod compiles an object schema into a function at its first parse: worth it for a schema parsed many times, but most
// forms build theirs per request (their messages and limits come with it), so every request paid the compilation (a
// three-field form: ~160 µs built and parsed with it, ~80 µs without, 3-5 µs parsed again once built). Schemas parsed
// on every request are built once at module level; the others skip the compilation.
z.config({ jitless: true });

/** A form's fields as the schemas see them: a name's value, or all of them when the name repeats. */
export type FormFields = Record<string, FormDataEntryValue | FormDataEntryValue[]>;

/** Field errors: for each field, the message of its first problem (a translation key of the route's namespace). */
export type FieldErrors = Record<string, string>;

export function formFields(form: FormData): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of form) {
    const before = fields[name];
    fields[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return fields;
}

/** The first problem of each field (path head; "form" for a problem of the whole form). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const name = issue.path.length > 0 ? String(issue.path[0]) : "form";
    errors[name] ??= issue.message;
  }
  return errors;
}

/** Parses fields with a schema: the value, or the field errors. */
export function parseFields<S extends z.ZodType>(
  schema: S,
  fields: unknown,
): { value: z.output<S>; errors: null } | { value: null; errors: FieldErrors } {
  const parsed = schema.safeParse(fields);
  return parsed.success ? { value: parsed.data, errors: null } : { value: null, errors: fieldErrors(parsed.error) };
}

// Field schemas. A missing field reads as "" (as `String(form.get(name) ?? "")` did), a file where text was expected too.
const asText = (value: unknown): string =>
  typeof value === "string" ? value : Array.isArray(value) ? asText(value[0]) : "";

/** A text field as sent (a missing one is ""). */
export const text = () => z.preprocess(asText, z.string());
/** A text field without surrounding white space. */
export const trimmed = () => z.preprocess((value) => asText(value).trim(), z.string());
/** Every value of a repeated text field (none when missing). */
export const list = () =>
  z.preprocess(
    (value) => (value === undefined ? [] : [value].flat().map((v) => (typeof v === "string" ? v : ""))),
    z.array(z.string()),
  );
/** Whether a field was sent at all (a hidden flag such as `inPlace`). */
export const flag = () => z.preprocess((value) => value !== undefined, z.boolean());
/** An uploaded file, or null when the field is missing, empty or not a file. */
export const upload = () =>
  z.preprocess((value) => (value instanceof File && value.size > 0 ? value : null), z.instanceof(File).nullable());

/** One entry of an intent table. `invalid` answers this intent's invalid fields (else the table's `invalid`). */
export type Intent<S extends z.ZodType, Result, Invalid = never> = {
  schema: S;
  run: (input: z.output<S>) => Result;
  invalid?: (errors: FieldErrors, fields: FormFields) => Invalid;
};

/** Declares an intent, so that `run` knows the types its schema gives. */
export function intent<S extends z.ZodType, Result, Invalid = never>(entry: Intent<S, Result, Invalid>) {
  return entry;
}

// oxlint-disable-next-line typescript/no-explicit-any -- any schema, any result: the table's types come from its entries
type AnyIntent = {
  schema: z.ZodType;
  run: (input: any) => unknown;
  invalid?: (errors: FieldErrors, fields: FormFields) => unknown;
};

type Answers<T extends Record<string, AnyIntent>> = {
  [K in keyof T]:
    | Awaited<ReturnType<T[K]["run"]>>
    | (T[K]["invalid"] extends (errors: FieldErrors, fields: FormFields) => infer I ? Awaited<I> : never);
}[keyof T];

export type IntentOptions<T, Unknown, Invalid> = {
  /** The answer to a form whose intent is not in the table (usually a 400). */
  unknown: (intent: string, fields: FormFields) => Unknown;
  /** The answer to invalid fields of an intent without its own `invalid` (usually a 400 with the field errors). */
  invalid: (errors: FieldErrors, intent: keyof T & string, fields: FormFields) => Invalid;
  /** The intent of a form without an `intent` field (none: such a form is unknown). */
  fallback?: keyof T & string;
};

/** The translated error page with 400, for a form no page of the route sends (an unknown intent). */
export function badRequest(): never {
  throw data(null, { status: 400 });
}

/** Reads the form (bounded, `readForm`), then runs the intent it names with its parsed fields. */
export async function dispatchIntents<T extends Record<string, AnyIntent>, Unknown, Invalid>(
  request: Request,
  intents: T,
  options: IntentOptions<T, Unknown, Invalid>,
): Promise<Answers<T> | Awaited<Unknown> | Awaited<Invalid>> {
  const form = await readForm(request);
  const sent = form.get("intent");
  const name = sent === null ? (options.fallback ?? "") : typeof sent === "string" ? sent : "";
  const fields = formFields(form);
  if (!Object.hasOwn(intents, name)) return (await options.unknown(name, fields)) as Awaited<Unknown>;
  const entry = intents[name]!;
  const parsed = entry.schema.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return (await (entry.invalid
      ? entry.invalid(errors, fields)
      : options.invalid(errors, name, fields))) as Answers<T>;
  }
  return (await entry.run(parsed.data)) as Answers<T>;
}
