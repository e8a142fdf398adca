/**
 * Phrasal verbs questions are put in, read as the one word documents say the same with: "When did Tika 2.0.0 come
 * out?" is answered by "Release 2.0.0 - 07/07/2021", which holds neither "come" nor "out". The retriever searches
 * with the word and the offline responder weighs sentences by it.
 */
const PHRASAL_VERBS: readonly (readonly [RegExp, string])[] = [
  // Not "come out of": "What came out of the meeting?" asks what resulted.
  [/\b(?:come|comes|came|coming)\s+out\b(?!\s+of\b)/gi, 'released'],
  [/\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+on\b/gi, 'enable'],
  [/\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+off\b/gi, 'disable'],
  [/\b(?:get|gets|got|getting)\s+rid\s+of\b/gi, 'remove'],
  // "What did he used to do?" asks what he formerly did; not "What did police say was used to start the fire?" or
  // "did they get used to it", nor "What did they use to build roads?", asking for a tool. The correct "What did he
  // use to do?" is as often the last, so it is left as it is.
  [
    /\b(did\s+(?:[\p{L}'’]+\s+){1,3}?)(?<!\b(?:am|is|are|was|were|be|been|being|get|gets|got|getting)\s+)used\s+to\b/giu,
    '$1former',
  ],
];

/** The text with its phrasal verbs in the words documents use (`PHRASAL_VERBS`). */
export function withPlainVerbs(text: string): string {
  return PHRASAL_VERBS.reduce((read, [phrase, word]) => read.replace(phrase, word), text);
}
