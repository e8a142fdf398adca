/**
 * A noun made from a verb, as the verb: "delivery" and "delivered", "attachments" and "attaching", "installation" and
 * "installed", "removal" and "removed", "references" and "referenced", "failure" and "failed". A question asks with
 * one ("In which file formats are reports delivered?") where a document writes the other ("REPORT DELIVERY: CSV
 * file..."), and the light stemmer (words.ts `stem`) meets only inflections. Matching terms take the verb's stem
 * (words.ts `term`); the embedder's stems, stored with users' data, do not change.
 *
 * The rules are endings, each with the letters it must leave so that short words stay whole ("station", "nation",
 * "misery", "payment", "ensure", "balance"), and read the stem with or without its final "e", which `stem` drops from
 * "referenced" and "measured" but not from "reference" and "measure". Nouns whose stem is another common word keep
 * their own (`OTHER_WORD_STEMS`). Some pairs still meet that are not one word ("battery" and "batter", "department" and
 * "depart", "validation" and "valid", "projection" and "project"), which costs a little where both are about.
 *
 * Measured on the offline responder's replies to dumped passages, with words.ts's reading of "tried" as "try": over the
 * shared SQuAD half 4,541 of 5,397 held a gold answer against 4,529 without them (held-out articles 1,976 of 2,374
 * against 1,970), and 358 of the 397 corpus questions of fact their fact against 352 (with retrieval, which reranks
 * by these terms too, run again). Adverbs ("-ly") gained 3 more SQuAD replies but answered 0.5 points more questions
 * from an article without the answer; "-ness", "-ity", "-able", "-tor" and agents in "-er" ("sender", "parser")
 * gained nothing.
 */
const DERIVATIONS: readonly { ending: RegExp; derivesFurther?: true }[] = [
  // "delivery", "discovery", "recovery": the "-er" verb.
  { ending: /^(\p{L}{4,}er)y$/u },
  // "attachment", "requirement", "agreement".
  { ending: /^(\p{L}{5,})ment$/u },
  // "installation", "configuration", "obligation"; not "-ate" verbs, whose stem keeps "at" ("creat"). The verb may
  // itself end as a noun does: "implementation" is "implement", which is read as "implemented" is.
  { ending: /^(\p{L}{4,})ation$/u, derivesFurther: true },
  // "contribution", "protection", "execution".
  { ending: /^(\p{L}{4,}[^a]t)ion$/u, derivesFurther: true },
  // "marriage", "coverage", "shortage"; not "message", "package" nor "passage".
  { ending: /^(\p{L}{5,})age?$/u },
  // "removal", "approval", "proposal", "refusal"; and the "-al" adjectives of nouns in "-se" or "-ve" ("universal",
  // "causal"), not those in other letters ("signal", "global").
  { ending: /^(\p{L}{3,}[vs])al$/u },
  // "acceptance", "variance", "reference", "occurrence"; not "-ience" ("experience", "audience"), whose verb ends
  // otherwise.
  { ending: /^(\p{L}{4,})(?:a|(?<!i)e)nce?$/u },
  // "failure", "closure", "exposure"; not "feature" nor "creature", which would meet "feat" and "create".
  { ending: /^(\p{L}{3,}[ls])ure?$/u },
];

/**
 * The last two letters of the endings above: most words end otherwise, and are told apart by a look-up rather than
 * eight patterns (`term` reads every word of every passage ranked).
 */
const DERIVED_ENDS = new Set(['ry', 'nt', 'on', 'ge', 'ag', 'al', 'ce', 'nc', 're', 'ur']);

/**
 * Nouns whose verb's stem is another common word, in technical writing above all: "exception" is no "except",
 * "instance" no "inst". Stems without a final "e", as `verbOfNoun` reads them either way.
 */
const OTHER_WORD_STEMS = new Set(
  `exception production importanc publication specification formation instanc distanc definition composition
opposition subscription conception contention transition secretion pressur modulation violenc`.split(/\s+/),
);

/**
 * The stem of the verb a noun is made from, or the stem itself. The noun's "i" is the verb's "y": "accompaniment"
 * is "accompany", "variance" "vary", "marriage" "marry".
 */
export function verbOfNoun(stem: string): string {
  if (!DERIVED_ENDS.has(stem.slice(-2)) || OTHER_WORD_STEMS.has(stem.replace(/e$/, ''))) return stem;
  for (const { ending, derivesFurther } of DERIVATIONS) {
    const verb = ending.exec(stem)?.[1]?.replace(/([^aeiou])i$/, '$1y');
    if (verb !== undefined) return derivesFurther ? verbOfNoun(verb) : verb;
  }
  return stem;
}
