/**
 * A noun made from a verb, as the verb: "delivery" and "delivered", "attachments" and "attaching", "installation" and
 * "installed", "removal" and "removed", "acceptance" and "accepted", "failure" and "failed". A question asks with one
 * ("In which file formats are reports delivered?") where a document writes the other ("REPORT DELIVERY: CSV
 * file..."), and the light stemmer (words.ts `stem`) meets only inflections. Matching terms take the verb's stem
 * (words.ts `term`); the embedder's stems, stored with users' data, do not change.
 *
 * The rules are endings, each with the letters it must leave so that short words stay whole ("station", "nation",
 * "misery", "payment", "ensure"). One may still join two words that are not one ("battery" and "batter",
 * "department" and "depart"), which costs a little where both are about.
 *
 * Measured on the offline responder's replies to dumped passages, with words.ts's reading of "tried" as "try": over the
 * shared SQuAD half 4,542 of 5,397 held a gold answer against 4,529 without these rules (held-out articles 1,976 of
 * 2,374 against 1,970), and 358 of the 397 corpus questions of fact their fact against 352 (with retrieval, which
 * reranks by these terms too, run again). Adverbs ("-ly") gained 3 more SQuAD replies but answered 0.5 points more
 * questions from an article without the answer; "-ness", "-ity", "-able", "-tor" and agents in "-er" ("sender",
 * "parser") gained nothing.
 */
const DERIVATIONS: readonly { ending: RegExp; dropped: number }[] = [
  // "delivery", "discovery", "recovery": the "-er" verb.
  { ending: /^\p{L}{4,}ery$/u, dropped: 1 },
  // "attachment", "requirement", "agreement".
  { ending: /^\p{L}{5,}ment$/u, dropped: 4 },
  // "installation", "configuration", "obligation"; not "-ate" verbs, whose stem keeps "at" ("creat").
  { ending: /^\p{L}{4,}ation$/u, dropped: 5 },
  // "contribution", "protection", "execution".
  { ending: /^\p{L}{4,}[^a]tion$/u, dropped: 3 },
  // "marriage", "coverage", "shortage"; not "message", "package" nor "passage".
  { ending: /^\p{L}{5,}age$/u, dropped: 3 },
  // "removal", "approval", "proposal", "refusal"; not the "-al" adjectives ("signal", "global").
  { ending: /^\p{L}{3,}[vs]al$/u, dropped: 2 },
  // "acceptance", "appearance", "reference", "occurrence".
  { ending: /^\p{L}{4,}[ae]nce$/u, dropped: 4 },
  // "failure", "closure", "exposure"; not "feature" nor "creature", which would meet "feat" and "create".
  { ending: /^\p{L}{3,}[ls]ure$/u, dropped: 3 },
];

/**
 * The stem of the verb a noun is made from, or the stem itself. A noun made from another goes back to the first verb:
 * "implementation" is "implement" as "implemented" is.
 */
export function verbOfNoun(stem: string): string {
  const rule = DERIVATIONS.find(({ ending }) => ending.test(stem));
  if (!rule) return stem;
  // The verb's "y" the noun wrote as "i": "accompaniment" is "accompany", "variance" "vary", "marriage" "marry".
  return verbOfNoun(stem.slice(0, -rule.dropped).replace(/([^aeiou])i$/, '$1y'));
}
