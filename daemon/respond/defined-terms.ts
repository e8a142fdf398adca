/**
 * Terms a document defines for itself (`Apache License, Version 2.0 (the "License")`): licences, contracts and
 * policies name a thing once and then say "the License", "the Company". A quoted sentence using such a term
 * says nothing of what it names without the sentence defining it.
 */
import { type Candidate, sourceOf } from './candidates.ts';

/** `(the "License")`, `("Licensee")`, `(hereinafter "the Company")`: the capitalised term in quotes, in brackets. */
const DEFINITION =
  /\((?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?["“](?:[Tt]he\s+)?((?:\p{Lu}[\p{L}-]*)(?:\s+\p{Lu}[\p{L}-]*){0,3})["”]\)/gu;

/** The terms a sentence defines. */
export function termsDefined(sentence: string): string[] {
  return [...sentence.matchAll(DEFINITION)].map((match) => match[1]!.replace(/\s+/g, ' '));
}

/**
 * What refers to a defined term by it: "the License", "This Agreement", "such Company". The term is letters,
 * hyphens and spaces (`DEFINITION`), so it needs no escaping; `\b` would not see a letter outside ASCII.
 */
function reference(term: string): RegExp {
  const words = term.replaceAll(' ', String.raw`\s+`);
  return new RegExp(String.raw`(?<![\p{L}\p{N}])(?:[Tt]he|[Tt]his|[Ss]uch)\s+${words}(?![\p{L}\p{N}])`, 'u');
}

/**
 * The chosen sentences with, just before the first that refers to a term of its source, the sentence of the
 * passages defining it, when no sentence chosen does. The best sentence stays first unless it needs a definition
 * itself. A definition is quoted whatever the reply's length: without it, the sentence after names nothing.
 */
export function withDefinitions(chosen: Candidate[], candidates: Candidate[]): Candidate[] {
  const definitions = candidates.flatMap((candidate) =>
    termsDefined(candidate.sentence).map((term) => ({ term, candidate, refers: reference(term) })),
  );
  let reply = chosen;
  for (const { term, candidate: definition, refers } of definitions) {
    const ofSource = (sentence: Candidate) => sourceOf(sentence) === sourceOf(definition);
    if (reply.some((sentence) => ofSource(sentence) && termsDefined(sentence.sentence).includes(term)))
      continue;
    const first = reply.findIndex((sentence) => ofSource(sentence) && refers.test(sentence.sentence));
    if (first >= 0) reply = [...reply.slice(0, first), definition, ...reply.slice(first)];
  }
  return reply;
}
