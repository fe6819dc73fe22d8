import { isOptionalPartOfSpeech } from "../learning/vocabulary";
import { isTarget, type Target } from "./targets";
import type { ImportOptions } from "./import.server";

/** At most this many columns are mapped; more are ignored. */
const MAX_COLUMNS = 50;

/**
 * The learner's column mapping (`col0=text&col1=meaning…`) and default part of speech, from the preview's GET form or
 * the confirm POST; a missing or unknown value falls back to the guess.
 */
export function readImportOptions(params: { get(name: string): unknown }): ImportOptions {
  const mapping: Target[] = [];
  for (let i = 0; i < MAX_COLUMNS; i++) {
    const value = params.get(`col${i}`);
    if (value === null || value === undefined) break;
    mapping.push(isTarget(value) ? value : "ignore");
  }
  const pos = params.get("pos");
  return {
    mapping: mapping.length > 0 ? mapping : null,
    // None unless the learner chooses one: a file without parts of speech leaves them empty.
    partOfSpeech: isOptionalPartOfSpeech(pos) ? pos : "",
  };
}
