import type { Target } from "./targets";

/**
 * Column and field names as learners and shared decks write them, in the seven interface languages and the common
 * shared-deck layouts (Front/Back, Question/Answer, Expression/Reading/Meaning, Core's Vocabulary-Kanji / -Kana /
 * -English, Word/Definition, Hanzi/Pinyin/English, Sentence/…), each with the target a learner would map it to.
 * Names are compared lower-cased, without accents, with spaces, dashes, dots and underscores alike.
 *
 * The rules are tried in order, each over every column still free: an earlier rule wins a target (Core's
 * Vocabulary-Kana is the reading before its sentence's Reading field is looked at).
 */
type Guess = Target | "sentenceMeaning";
const RULES: [RegExp, Guess][] = [
  // A deck's own vocabulary fields come before its generic ones (Core: Vocabulary-Kanji, then Expression).
  [/^(vocab(ulary)? (kanji|hanzi|word|expression)|word kanji|kanji|hanzi|simplified|target word)$/, "text"],
  // A sentence's translation (Core's Sentence-English): the meaning when the sentence is the term.
  [
    /^(sentences?|examples?|phrases?|beispiel(satz)?|satz|oracion|frase|cumle|ornek|речення|приклад|例句|句子) (english|meaning|translation|traduction|francais|ubersetzung|deutsch|traduccion|espanol|ceviri|переклад|翻译|英文)$/,
    "sentenceMeaning",
  ],
  // Sentences, and anything about a sentence (Sentence-Kana, Sentence-Audio), are examples: the first of them.
  [
    /^(sentences?|examples?|example sentences?|context|fragment|phrase|exemples?|phrases?|beispiel(e|satz|satze)?|satz|satze|ejemplos?|oracion(es)?|frases?|ornek(ler)?|cumle(ler)?|ornek cumle|приклади?|речення|例句|句子|示例)( .*)?$/,
    "example",
  ],
  [
    /^(text|term|word|front|question|expression|vocab(ulary)?|lemma|headword|terme|mot|recto|vocabulaire|begriff|wort|vokabel|vorderseite|frage|ausdruck|termino|palabra|anverso|frente|pregunta|expresion|vocabulario|terim|kelime|sozcuk|on yuz|on|soru|ifade|термін|слово|лицьовий бік|питання|вираз|词语|单词|词汇|词|正面|问题|术语|汉字)$/,
    "text",
  ],
  // Readings are recognised before a sentence's Reading: Core's Vocabulary-Kana is the term's.
  [/^(vocab(ulary)? (kana|reading|pinyin)|word reading)$/, "reading"],
  [
    /^(reading|kana|hiragana|pinyin|zhuyin|bopomofo|jyutping|romaji|romanization|romanisation|transliteration|pronunciation|ipa|furigana|lecture|prononciation|translitteration|lesung|aussprache|lautschrift|umschrift|lectura|pronunciacion|transliteracion|okunus|telaffuz|читання|вимова|транслітерація|транскрипція|读音|拼音|注音|发音)$/,
    "reading",
  ],
  [/^(vocab(ulary)? (english|meaning|translation|definition)|word (english|meaning))$/, "meaning"],
  [
    /^(meanings?|translation|definition|back|answer|gloss|hint|sens|signification|traduction|verso|reponse|bedeutung|ubersetzung|ruckseite|antwort|significado|traduccion|definicion|reverso|respuesta|anlam|ceviri|tanim|arka yuz|arka|cevap|yanit|значення|переклад|визначення|зворотний бік|відповідь|释义|意思|含义|翻译|定义|背面|答案)$/,
    "meaning",
  ],
  // A language's name is the meaning only when nothing else is (Hanzi / Pinyin / English).
  [/^(english|英文|英语)$/, "meaning"],
  [
    /^(vocab(ulary)? pos|part of speech|pos|word class|word type|wortart|nature|classe grammaticale|categorie grammaticale|categoria gramatical|sozcuk turu|kelime turu|tur|частина мови|词性)$/,
    "partOfSpeech",
  ],
  [
    /^(notes?|comments?|remarks?|precisions?|details?|extra|info|information|remarques?|commentaires?|anmerkung(en)?|notiz(en)?|bemerkung(en)?|hinweise?|nota|notas|comentarios?|notlar?|aciklama|yorum|примітк[аи]|нотатки|коментар|备注|笔记|注释|说明)$/,
    "notes",
  ],
];

/** A field that holds media, never a term or its meaning (Core's Vocabulary-Audio, a deck's Image). */
const MEDIA =
  /(^| )(audio|sound|image|picture|pic|photo|media|son|bild|ton|imagen|sonido|resim|ses|гифка|аудіо|зображення|音频|图片)$/;

/** A name as the rules compare it. */
export function normalName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\s_\-.:/()[\]]+/g, " ")
    .trim()
    .replace(/ı/g, "i");
}

/** True when a name is one the rules know: a first row of such names is a header. */
export const isKnownName = (name: string) => RULES.some(([pattern]) => pattern.test(normalName(name)));

/**
 * The mapping a learner would choose for these column names. Where no name says which column is the term, the first
 * free column (a sentence deck's sentence, if that is all there is) is; where none says which is the meaning, the next
 * free column after the term is. Media columns are never guessed.
 */
export function mappingOfNames(names: string[], width: number, looksLikeMedia: (column: number) => boolean): Target[] {
  const normal = Array.from({ length: width }, (_, i) => normalName(names[i] ?? ""));
  const guesses: (Guess | null)[] = Array.from({ length: width }, () => null);
  for (const [pattern, guess] of RULES) {
    if (guesses.includes(guess)) continue;
    const column = normal.findIndex((name, i) => guesses[i] === null && pattern.test(name));
    if (column !== -1) guesses[column] = guess;
  }
  const free = (i: number) => guesses[i] === null && !MEDIA.test(normal[i]!) && !looksLikeMedia(i);
  if (!guesses.includes("text")) {
    // A sentence deck: its sentence is the term, and the sentence's translation its meaning.
    const column = guesses.findIndex((_, i) => free(i));
    const sentence = guesses.indexOf("example");
    if (column !== -1) guesses[column] = "text";
    else if (sentence !== -1) {
      guesses[sentence] = "text";
      const translation = guesses.indexOf("sentenceMeaning");
      if (translation !== -1 && !guesses.includes("meaning")) guesses[translation] = "meaning";
    }
  }
  if (!guesses.includes("meaning")) {
    const text = guesses.indexOf("text");
    const column = guesses.findIndex((_, i) => i > text && free(i));
    if (column !== -1) guesses[column] = "meaning";
  }
  return guesses.map((guess) => (guess === null || guess === "sentenceMeaning" ? "ignore" : guess));
}
