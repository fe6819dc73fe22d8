/**
 * The dictionary's lemmas of a word ("ging" → ["gehen"]), for the word panel's parent proposals (ADR 061).
 *
 * THE hook point for a dictionary: it answers nothing until the app has a dictionary store (`dictionary_entries`,
 * issue 26's dictionaries). Then it looks the word up there by headword in the study language and returns the entries'
 * lemmas that differ from the word, most frequent first. Its callers need no change.
 */
export async function lemmaCandidates(language: string, word: string): Promise<string[]> {
  void language;
  void word;
  return [];
}
