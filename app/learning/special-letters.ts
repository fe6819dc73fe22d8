/**
 * Letters of a study language that a keyboard of another language may lack, offered as buttons beside a typed
 * answer. Languages written in their own script (or without extra letters) have none.
 */
const LETTERS: Record<string, string> = {
  de: "ä ö ü ß Ä Ö Ü",
  es: "á é í ó ú ü ñ ¿ ¡",
  fr: "à â æ ç é è ê ë î ï ô œ ù û ü ÿ",
  it: "à è é ì í ò ó ù",
  pt: "á â ã à ç é ê í ó ô õ ú",
  ca: "à ç é è í ï ó ò ú ü ·",
  tr: "ç ğ ı İ ö ş ü",
  pl: "ą ć ę ł ń ó ś ź ż",
  cs: "á č ď é ě í ň ó ř š ť ú ů ý ž",
  sk: "á ä č ď é í ĺ ľ ň ó ô ŕ š ť ú ý ž",
  ro: "ă â î ș ț",
  hu: "á é í ó ö ő ú ü ű",
  nl: "é ë ï ó ö ü",
  sv: "å ä ö",
  da: "æ ø å",
  nb: "æ ø å",
  nn: "æ ø å",
  no: "æ ø å",
  is: "á ð é í ó ú ý þ æ ö",
  fi: "ä ö å",
  et: "ä ö õ ü š ž",
  lv: "ā č ē ģ ī ķ ļ ņ š ū ž",
  lt: "ą č ę ė į š ų ū ž",
  hr: "č ć đ š ž",
  sl: "č š ž",
  vi: "ă â đ ê ô ơ ư",
  eo: "ĉ ĝ ĥ ĵ ŝ ŭ",
  uk: "ґ є і ї ʼ",
  ga: "á é í ó ú",
  cy: "â ê î ô û ŵ ŷ",
};

export function specialLetters(language: string): string[] {
  return LETTERS[language]?.split(" ") ?? [];
}
