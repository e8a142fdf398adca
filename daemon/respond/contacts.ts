/**
 * Questions asking for a way to reach someone or something, which a line answers by writing one and little else:
 * a phone number, an e-mail address, a web address.
 */
import type { Question } from './question.ts';

/**
 * A phone's number: after a "+" or a phone's label, digits parted by spaces, hyphens or brackets. One bounded run of
 * them, not groups of digits: a long run of digits could be parted into groups in too many ways to try.
 */
const PHONE_NUMBER =
  /(?:\b(?:tel|telephone|phone|mobile|mob|cell|fax)\b\.?\s*:?\s*\+?|\+)(?<number>\(?\d[\d ()-]{4,24}\d)(?![.,]?\d)/i;
/** A phone's number has this many digits at least: "+229 97292685"; "+12.5 (2.3)" is a figure... */
const FEWEST_PHONE_DIGITS = 7;

/** ...and a run of this many together: "+1 312 509 0620"; "+125 (110-140) ms" is a figure. */
const LONGEST_RUN = 4;

function writesPhoneNumber(sentence: string): boolean {
  const number = PHONE_NUMBER.exec(sentence)?.groups?.['number'];
  return (
    number !== undefined &&
    number.replace(/\D/g, '').length >= FEWEST_PHONE_DIGITS &&
    new RegExp(String.raw`\d{${LONGEST_RUN}}`).test(number)
  );
}

/**
 * What asks for a way to reach someone or something, and whether a line writes one: "What phone number does the
 * e-mail give?" a number after a "+" or a phone's label ("Mobile:+229 97292685", "Tel.: +1 312 509 0620"), "Which
 * e-mail address should I write to?" an address, "What was the web address of the Tika site?" a web address
 * ("http://incubator.apache.org/tika/"). "Which cell line..." and "Which mobile phone sold most?" ask for none.
 */
const CONTACTS_ASKED: readonly (readonly [RegExp, (sentence: string) => boolean])[] = [
  [
    /^\W*(?:what|which)\b[^?]*\b(?:(?:tele)?phone|fax|mobile|cell)(?:\s+phone)?\s+(?:number|no\.)/i,
    writesPhoneNumber,
  ],
  [
    /^\W*(?:what|which)\b[^?]*\be-?mail\s+address/i,
    (sentence) => /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+/.test(sentence),
  ],
  [
    /^\W*(?:what|which)\b[^?]*\b(?:web\s*address|url|web\s*site|website|home\s*page|homepage)\b/i,
    (sentence) => /\b(?:https?:\/\/|www\.)[\w-]/i.test(sentence),
  ],
];

/** Whether a line writes the way to reach someone a question asks for, when it asks for one. */
export function contactAsked(question: Question): ((sentence: string) => boolean) | undefined {
  return CONTACTS_ASKED.find(([asks]) => asks.test(question.text))?.[1];
}
