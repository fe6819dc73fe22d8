import { describe, expect, test } from "vitest";
import { z } from "zod";
import { dispatchIntents, formFields, intent, list, text, trimmed, upload } from "#app/http/intents.server.ts";
import { parseExample, parseTermFields } from "#app/learning/term-form.ts";
import { settingsSchema } from "#app/learning/settings.server.ts";
import { parseFields } from "#app/http/intents.server.ts";

const post = (fields: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return new Request("http://localhost/account/x", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body,
  });
};
const form = (fields: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
};

const table = {
  rename: intent({
    schema: z.object({ name: trimmed().pipe(z.string().min(1, "errors.nameRequired")) }),
    run: ({ name }) => ({ ran: "rename", name }),
  }),
  pick: intent({
    schema: z.object({ choice: z.enum(["a", "b"]), tags: list() }),
    run: ({ choice, tags }) => ({ ran: "pick", choice, tags }),
    invalid: (errors, fields) => ({ own: errors, sent: fields.choice }),
  }),
};
const options = {
  unknown: (name: string) => ({ unknown: name }),
  invalid: (errors: Record<string, string>, name: string) => ({ invalid: name, errors }),
};

describe("dispatchIntents", () => {
  test("runs the intent the form names with its parsed fields", async () => {
    expect(await dispatchIntents(post({ intent: "rename", name: "  Ada " }), table, options)).toEqual({
      ran: "rename",
      name: "Ada",
    });
    expect(await dispatchIntents(post({ intent: "pick", choice: "b", tags: ["x", "y"] }), table, options)).toEqual({
      ran: "pick",
      choice: "b",
      tags: ["x", "y"],
    });
  });

  test("answers an unknown or missing intent through the route's answer; a fallback names the missing one", async () => {
    expect(await dispatchIntents(post({ intent: "drop" }), table, options)).toEqual({ unknown: "drop" });
    expect(await dispatchIntents(post({ intent: "toString" }), table, options)).toEqual({ unknown: "toString" });
    expect(await dispatchIntents(post({ name: "x" }), table, options)).toEqual({ unknown: "" });
    expect(await dispatchIntents(post({ name: "x" }), table, { ...options, fallback: "rename" })).toEqual({
      ran: "rename",
      name: "x",
    });
  });

  test("answers invalid fields with the first message per field, the intent's own answer first", async () => {
    expect(await dispatchIntents(post({ intent: "rename", name: "  " }), table, options)).toEqual({
      invalid: "rename",
      errors: { name: "errors.nameRequired" },
    });
    const own = await dispatchIntents(post({ intent: "pick", choice: "c" }), table, options);
    expect(own).toMatchObject({ own: { choice: expect.any(String) }, sent: "c" });
  });

  test("reads the body through the bounded reader: a body that is not a form is refused with 415", async () => {
    const json = new Request("http://localhost/account/x", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    await expect(dispatchIntents(json, table, options)).rejects.toMatchObject({ init: { status: 415 } });
  });
});

describe("field schemas", () => {
  test("a missing field is empty text, a repeated one lists its values, an empty file is none", () => {
    const fields = formFields(form({ a: "1", many: ["x", "y"] }));
    expect(fields).toEqual({ a: "1", many: ["x", "y"] });
    expect(text().parse(undefined)).toBe("");
    expect(text().parse(["first", "second"])).toBe("first");
    expect(list().parse(undefined)).toEqual([]);
    expect(upload().parse(new File([], ""))).toBeNull();
    expect(upload().parse(new File(["hi"], "a.txt"))).toBeInstanceOf(File);
  });

  test("term fields keep their messages, all at once", () => {
    expect(parseTermFields(form({ text: " der   Hund ", partOfSpeech: "x", notes: "n".repeat(2001) }))).toEqual({
      value: null,
      errors: { partOfSpeech: "errors.partOfSpeechRequired", notes: "errors.notesTooLong" },
    });
    expect(parseTermFields(form({ text: " der   Hund " })).value).toEqual({
      text: "der Hund",
      reading: "",
      meaning: "",
      partOfSpeech: "",
      notes: "",
    });
    expect(parseTermFields(form({ text: "水", reading: " みず " })).value?.reading).toBe("みず");
    expect(parseTermFields(form({ text: "水", reading: "み".repeat(201) })).errors).toEqual({
      reading: "errors.readingTooLong",
    });
    expect(parseTermFields(form({ text: "x".repeat(201) })).errors).toEqual({ text: "errors.textTooLong" });
    expect(parseTermFields(form({})).errors).toEqual({ text: "errors.textRequired" });
  });

  test("an example is required only where the form is about it, and with a translation", () => {
    expect(parseExample(form({}), false)).toEqual({ value: null, errors: null });
    expect(parseExample(form({}), true).errors).toEqual({ sentence: "errors.sentenceRequired" });
    expect(parseExample(form({ translation: "x".repeat(501) }), false).errors).toEqual({
      sentence: "errors.sentenceRequired",
      translation: "errors.translationTooLong",
    });
    expect(parseExample(form({ sentence: " Der Hund. ", translation: "The dog." }), true).value).toEqual({
      sentence: "Der Hund.",
      translation: "The dog.",
    });
  });

  test("settings: whole numbers within limits, a known zone, known modes in their order", () => {
    const good = { newPerDay: " 10 ", reviewsPerDay: "100", timeZone: "europe/berlin", modes: ["cloze", "forward"] };
    expect(parseFields(settingsSchema, formFields(form(good)))).toEqual({
      value: {
        newPerDay: 10,
        reviewsPerDay: 100,
        timeZone: "Europe/Berlin",
        modes: ["forward", "cloze"],
        desiredRetention: 0.9,
      },
      errors: null,
    });
    const bad = {
      newPerDay: "1001",
      reviewsPerDay: "1e3",
      timeZone: "Mars/Base",
      modes: ["forward", "zz"],
      desiredRetention: "0.99",
    };
    expect(parseFields(settingsSchema, formFields(form(bad))).errors).toEqual({
      newPerDay: "settings.errors.newPerDay",
      reviewsPerDay: "settings.errors.reviewsPerDay",
      timeZone: "settings.errors.timeZone",
      modes: "settings.errors.modes",
      desiredRetention: "settings.errors.desiredRetention",
    });
  });
});
