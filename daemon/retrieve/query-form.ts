/**
 * Whether a query is a question or a statement. A question is answered by one sentence holding its words and the
 * kind of thing it asks for (a year for "when", text/answer-kind.ts); a statement (a claim, a topic, keywords) is
 * matched by the passage about it as a whole. The reranker weighs its signals differently for the two (rerank.ts).
 */

const QUESTION_START =
  /^\s*(what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|can|could|should|would|will|has|have|had|name|list)\b/i;
/**
 * "What" inside a sentence ("Trotsky thought what was needed") and blanks to fill ("___ helps the biosphere").
 * Inside a sentence, "when", "where" and "who" are as often relative ("depends on where the mutation is located").
 */
const QUESTION_INSIDE = /\?\s*$|\b(what|how many|how much)\b|_{2,}/i;

export function isQuestion(query: string): boolean {
  return QUESTION_START.test(query) || QUESTION_INSIDE.test(query);
}
