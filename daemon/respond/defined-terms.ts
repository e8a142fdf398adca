/**
 * Terms a document defines for itself (`Apache License, Version 2.0 (the "License")`): licences, contracts and
 * policies name a thing once and then say "the License", "the Company". A quoted sentence using such a term
 * says nothing of what it names without the sentence defining it.
 */
import type { Candidate } from './candidates.ts';

/** `(the "License")`, `("Licensee")`, `(hereinafter "the Company")`: the capitalised term in quotes, in brackets. */
const DEFINITION =
  /\((?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?["“](?:the\s+)?((?:\p{Lu}[\p{L}-]*)(?:\s+\p{Lu}[\p{L}-]*){0,3})["”]\)/gu;

/** The terms a sentence defines. */
export function termsDefined(sentence: string): string[] {
  return [...sentence.matchAll(DEFINITION)].map((match) => match[1]!.replace(/\s+/g, ' '));
}

/** Whether a sentence refers to a defined term by it: "the License", "this Agreement". */
function refersTo(sentence: string, term: string): boolean {
  return new RegExp(`\\b(?:the|this|such)\\s+${term.replaceAll(' ', '\\s+')}\\b`, 'u').test(sentence);
}

/**
 * The chosen sentences, each preceded where needed by the sentence of its source defining a term it refers to,
 * when another sentence of the passages given defines it and none chosen does.
 */
export function withDefinitions(chosen: Candidate[], candidates: Candidate[]): Candidate[] {
  const definitions = candidates.flatMap((candidate) =>
    termsDefined(candidate.sentence).map((term) => ({ term, candidate })),
  );
  if (definitions.length === 0) return chosen;
  const added: Candidate[] = [];
  for (const { term, candidate: definition } of definitions) {
    const all = [...chosen, ...added];
    if (all.includes(definition)) continue;
    const needed = all.some(
      (sentence) =>
        sentence.passage.sourceId === definition.passage.sourceId &&
        refersTo(sentence.sentence, term) &&
        !termsDefined(sentence.sentence).includes(term),
    );
    if (needed && !all.some((sentence) => termsDefined(sentence.sentence).includes(term)))
      added.push(definition);
  }
  return [...added, ...chosen];
}
