/**
 * Questions asking for a way to reach someone or something, which a line answers by writing one and little else:
 * a phone number, an e-mail address, a web address.
 */
import type { Question } from './question.ts';

/**
 * What asks for a way to reach someone or something, and how such a way is written: "What phone number does
 * the e-mail give?" by a number with a "+" or after a phone's label ("Mobile:+229 97292685", "Tel.: +1 312 509
 * 0620"), "Which e-mail address should I write to?" by an address, "What was the web address of the Tika site?" by
 * a web address ("http://incubator.apache.org/tika/").
 */
const CONTACTS_ASKED: readonly (readonly [RegExp, RegExp])[] = [
  [
    /^\W*(?:what|which)\b[^?]*\b(?:(?:tele)?phone|mobile|cell|fax)\b/i,
    /(?:\b(?:tel|telephone|phone|mobile|mob|cell|fax)\b\.?\s*:?\s*|\+)\(?\d[\d ().-]{5,18}\d/i,
  ],
  [/^\W*(?:what|which)\b[^?]*\be-?mail\s+address/i, /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/],
  [
    /^\W*(?:what|which)\b[^?]*\b(?:web\s*address|url|web\s*site|website|home\s*page|homepage)\b/i,
    /\b(?:https?:\/\/|www\.)[\w-]/i,
  ],
];

/** How the way to reach someone a question asks for is written, when it asks for one. */
export function contactAsked(question: Question): RegExp | undefined {
  return CONTACTS_ASKED.find(([asks]) => asks.test(question.text))?.[1];
}
