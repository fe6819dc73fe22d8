/** Learning stages, in order. */
export const STAGES = ["tolearn", "inprogress", "needsreview", "learned"] as const;
export type Stage = (typeof STAGES)[number];

export const PARTS_OF_SPEECH = [
  "adjective",
  "adposition",
  "adverb",
  "auxiliary",
  "coordinating_conjunction",
  "determiner",
  "interjection",
  "noun",
  "numeral",
  "particle",
  "pronoun",
  "proper_noun",
  "punctuation",
  "verb",
] as const;
export type PartOfSpeech = (typeof PARTS_OF_SPEECH)[number];
/** The values offered when a learner picks one for a term: punctuation stays as data (imports, lists), not a choice. */
export const OFFERED_PARTS_OF_SPEECH: readonly PartOfSpeech[] = PARTS_OF_SPEECH.filter((pos) => pos !== "punctuation");

export const LEVELS = ["beginner", "elementary", "intermediate", "upper_intermediate", "advanced", "expert"] as const;
export type Level = (typeof LEVELS)[number];

export const DEFAULT_STUDY_LANGUAGE = "en";

/** Every ISO 639-1 two-letter language code. */
export const STUDY_LANGUAGES = (
  "aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo " +
  "es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka " +
  "kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng " +
  "nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn so sq sr ss st su " +
  "sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu"
).split(" ");

/** Study languages written right to left (ISO 639-1): their texts render with `dir="rtl"`. */
const RIGHT_TO_LEFT = new Set(["ar", "dv", "fa", "he", "ps", "sd", "ug", "ur", "yi"]);
export const textDirection = (language: string): "ltr" | "rtl" => (RIGHT_TO_LEFT.has(language) ? "rtl" : "ltr");

export const isStudyLanguage = (code: unknown): code is string =>
  typeof code === "string" && STUDY_LANGUAGES.includes(code);
export const isLevel = (value: unknown): value is Level =>
  typeof value === "string" && (LEVELS as readonly string[]).includes(value);
export const isStage = (value: unknown): value is Stage =>
  typeof value === "string" && (STAGES as readonly string[]).includes(value);
/** A term's part of speech, or "" when none was given (a new word in the reader, an import without that column). */
export type OptionalPartOfSpeech = PartOfSpeech | "";
export const isOptionalPartOfSpeech = (value: unknown): value is OptionalPartOfSpeech =>
  value === "" || isPartOfSpeech(value);
export const isPartOfSpeech = (value: unknown): value is PartOfSpeech =>
  typeof value === "string" && (PARTS_OF_SPEECH as readonly string[]).includes(value);

/** Orders of the member explore page. */
export const SORTS = ["newest", "oldest", "alphabetical", "due"] as const;
export type Sort = (typeof SORTS)[number];
