/**
 * Which transcription keyword groups a transcript matches: pure, so it is tested with plain
 * values. A keyword (a word or a phrase) matches where its words stand as whole words in the
 * transcript, case and punctuation aside: "refund" matches "Refund!" but not "refunded".
 */

export interface KeywordGroup {
  id: number;
  keywords: readonly string[];
  match_mode: 'any' | 'all';
  offer_id?: number | null;
  tag_name?: string | null;
  name?: string | null;
}

/** Lower-case words separated by single spaces, with a space at each end: phrase search becomes substring search. */
function normalized(text: string): string {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}']+/u).map((word) => word.replace(/^'+|'+$/g, '')).filter(Boolean);
  return ` ${words.join(' ')} `;
}

/** Whether `keyword` occurs in the transcript as whole words (case-insensitive). */
export function containsKeyword(transcript: string, keyword: string): boolean {
  const phrase = normalized(keyword);
  return phrase.trim() !== '' && normalized(transcript).includes(phrase);
}

/**
 * The groups whose keywords the transcript contains (any one, or all, by the group's mode),
 * among those for the call's offer (a group without an offer applies to every call).
 */
export function matchingGroups<T extends KeywordGroup>(transcript: string, groups: readonly T[], offerId: number | null = null): T[] {
  const text = normalized(transcript);
  const has = (keyword: string) => {
    const phrase = normalized(keyword);
    return phrase.trim() !== '' && text.includes(phrase);
  };
  return groups.filter((group) => {
    if (typeof group.offer_id === 'number' && group.offer_id !== offerId) return false;
    if (group.keywords.length === 0) return false;
    return group.match_mode === 'all' ? group.keywords.every(has) : group.keywords.some(has);
  });
}

/** The tags a call gets from its matching groups (the group's tag name, else its name), each once. */
export function tagsOf(groups: readonly KeywordGroup[]): string[] {
  return [...new Set(groups.map((group) => group.tag_name || group.name).filter((tag): tag is string => typeof tag === 'string' && tag !== ''))];
}
