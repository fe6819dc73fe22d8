// Plain `node` runs this file (scripts/dict-install.ts): relative imports carry `.ts`.
import { DictionaryFormatError } from "./formats.ts";

/**
 * The inflected forms of a Hunspell dictionary (an `.aff` of affix rules and a `.dic` of stems with their flags), each
 * with its stem: "trinke" → "trinken", "médecins" → "médecin", "врачей" → "врач". Prefixes, suffixes, their cross
 * product, circumfixes and aliases (AF) are applied; twofold suffixes are not (in Italian they add every verb's
 * clitics, "parlarglielo", a hundred forms a verb), nor is compounding (a compound's parts are looked up by the reader's segmenter, not here). A stem that says what
 * its own stem is ("st:avoir") gives its forms to that one.
 */

type Rule = { strip: string; add: string; flags: string[]; condition: RegExp | null };
type Affix = { prefix: boolean; cross: boolean; rules: Rule[] };

export type Affixes = {
  affixes: Map<string, Affix>;
  aliases: string[][];
  splitFlags: (text: string) => string[];
  circumfix: string | null;
  onlyInCompound: string | null;
  forbidden: string | null;
};

function flagSplitter(kind: string | undefined): (text: string) => string[] {
  if (kind === "long") return (text) => text.match(/[\s\S]{1,2}/g) ?? [];
  if (kind === "num") return (text) => text.split(",").filter(Boolean);
  return (text) => [...text];
}

const conditionOf = (text: string, prefix: boolean): RegExp | null => {
  if (text === "." || text === "") return null;
  try {
    return new RegExp(prefix ? `^${text}` : `${text}$`, "u");
  } catch {
    return null;
  }
};

/** Reads an `.aff`; a rule line that does not fit its affix's header is refused with its line number. */
export function parseAffixes(text: string): Affixes {
  const lines = text.split(/\r?\n/);
  const flagLine = lines.find((line) => /^FLAG\s/.test(line));
  const splitFlags = flagSplitter(flagLine?.split(/\s+/)[1]);
  const affixes = new Map<string, Affix>();
  const aliases: string[][] = [];
  const single: Record<string, string | null> = { CIRCUMFIX: null, ONLYINCOMPOUND: null, FORBIDDENWORD: null };
  let open: { flag: string; left: number } | null = null;
  lines.forEach((raw, i) => {
    const line = raw.replace(/\s+#.*$/, "").trim();
    const fields = line.split(/\s+/);
    const kind = fields[0];
    if (kind && kind in single && fields[1]) single[kind] = fields[1];
    if (kind === "AF" && fields.length === 2 && aliases.length === 0 && /^\d+$/.test(fields[1]!)) return;
    if (kind === "AF" && fields[1]) aliases.push(splitFlags(fields[1]));
    if (kind !== "PFX" && kind !== "SFX") return;
    const flag = fields[1]!;
    if (!open || open.flag !== flag || open.left === 0) {
      const count = Number(fields[3]);
      if (!Number.isInteger(count) || !/^[YN]$/.test(fields[2] ?? ""))
        throw new DictionaryFormatError(i + 1, `expected an affix header "${kind} flag Y|N count"`);
      affixes.set(flag, { prefix: kind === "PFX", cross: fields[2] === "Y", rules: [] });
      open = { flag, left: count };
      return;
    }
    if (fields.length < 4)
      throw new DictionaryFormatError(i + 1, "expected an affix rule: flag, strip, add, condition");
    const [add, continuation = ""] = fields[3]!.split("/");
    const flags = continuation
      ? /^\d+$/.test(continuation) && aliases.length
        ? (aliases[Number(continuation) - 1] ?? [])
        : splitFlags(continuation)
      : [];
    const prefix = kind === "PFX";
    affixes.get(flag)!.rules.push({
      strip: fields[2] === "0" ? "" : fields[2]!,
      add: add === "0" ? "" : add!,
      flags,
      condition: conditionOf(fields[4] ?? ".", prefix),
    });
    open.left--;
  });
  return {
    affixes,
    aliases,
    splitFlags,
    circumfix: single.CIRCUMFIX ?? null,
    onlyInCompound: single.ONLYINCOMPOUND ?? null,
    forbidden: single.FORBIDDENWORD ?? null,
  };
}

function applyRule(word: string, rule: Rule, prefix: boolean): string | null {
  if (prefix) {
    if (!word.startsWith(rule.strip) || (rule.condition && !rule.condition.test(word))) return null;
    return rule.add + word.slice(rule.strip.length);
  }
  if (!word.endsWith(rule.strip) || (rule.condition && !rule.condition.test(word))) return null;
  return word.slice(0, word.length - rule.strip.length) + rule.add;
}

/** Every form of one stem with the given flags (the stem itself not included). */
export function formsOf(stem: string, flags: readonly string[], aff: Affixes): Set<string> {
  const forms = new Set<string>();
  const circumfix = aff.circumfix;
  // An elided article or pronoun ("l'", "dell'", "qu'") is a word of its own to the reader, not part of a form.
  const banned = (rule: Rule) =>
    /['’]$/.test(rule.add) ||
    rule.flags.includes(aff.onlyInCompound ?? "\u0000") ||
    rule.flags.includes(aff.forbidden ?? "\u0000");
  const prefixes = flags.map((flag) => aff.affixes.get(flag)).filter((affix): affix is Affix => !!affix?.prefix);
  for (const flag of flags) {
    const affix = aff.affixes.get(flag);
    if (!affix || affix.prefix) continue;
    for (const rule of affix.rules) {
      if (banned(rule)) continue;
      const form = applyRule(stem, rule, false);
      if (form === null) continue;
      const needsPrefix = circumfix !== null && rule.flags.includes(circumfix);
      if (!needsPrefix) forms.add(form);
      if (!affix.cross) continue;
      for (const pre of prefixes) {
        if (!pre.cross) continue;
        for (const prule of pre.rules) {
          const prefixCircumfix = circumfix !== null && prule.flags.includes(circumfix);
          if (prefixCircumfix !== needsPrefix || banned(prule)) continue;
          const both = applyRule(form, prule, true);
          if (both !== null) forms.add(both);
        }
      }
    }
  }
  for (const pre of prefixes)
    for (const rule of pre.rules) {
      if (banned(rule) || (circumfix !== null && rule.flags.includes(circumfix))) continue;
      const form = applyRule(stem, rule, true);
      if (form !== null) forms.add(form);
    }
  forms.delete(stem);
  return forms;
}

/**
 * Calls `found(form, lemma)` for every inflected form of a `.dic` whose stem `lemmaOf` gives a dictionary form for
 * (the stem itself when it is a headword, another word for a stem that is itself a form, or null to skip it), with the
 * stem a line names ("st:avoir") where it names one. A file without its count of words on line 1 is refused.
 */
export function eachForm(
  dic: string,
  aff: Affixes,
  lemmaOf: (stem: string) => string | null,
  found: (form: string, lemma: string) => void,
): void {
  const lines = dic.split(/\r?\n/);
  if (!/^\d+\s*$/.test(lines[0] ?? "")) throw new DictionaryFormatError(1, "a .dic starts with its number of words");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line || line.startsWith("#") || line.startsWith("\t")) continue;
    const [entry = "", ...fields] = line.split(/[\t ]+/);
    const slash = entry.search(/(?<!\\)\//);
    const word = (slash < 0 ? entry : entry.slice(0, slash)).replace(/\\\//g, "/");
    if (!word) continue; // it_IT's comment lines start with "/"
    const flagText = slash < 0 ? "" : entry.slice(slash + 1);
    const flags =
      /^\d+$/.test(flagText) && aff.aliases.length
        ? (aff.aliases[Number(flagText) - 1] ?? [])
        : aff.splitFlags(flagText);
    const named = fields.find((field) => field.startsWith("st:"))?.slice(3);
    const lemma = lemmaOf(named || word);
    if (lemma === null) continue;
    if (lemma !== word) found(word, lemma);
    if (flags.length === 0) continue;
    for (const form of formsOf(word, flags, aff)) if (form !== lemma) found(form, lemma);
  }
}
