/**
 * Questions asking for a way to reach someone or something, which a line answers by writing one and little else:
 * a phone number, an e-mail address, a web address.
 */
import { writesWebAddress } from '../text/web-address.ts';
import { type Candidate, holdsOrLeansOn } from './candidates.ts';
import { contentStems } from './content-words.ts';
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
    writesWebAddress,
  ],
];

/** Whether a line writes the way to reach someone a question asks for, when it asks for one. */
export function contactAsked(question: Question): ((sentence: string) => boolean) | undefined {
  return CONTACTS_ASKED.find(([asks]) => asks.test(question.text))?.[1];
}

/** The words of asking for a way to reach someone, which the line writing it need not hold. */
const ASKING_FOR_CONTACT = new Set(
  contentStems(
    'email e-mail mail address phone telephone number fax mobile cell website web site url homepage home page reach contact write call send use get',
  ),
);

/**
 * Whether a line writes the way to reach what a question asks about: the kind of contact asked for, the words the
 * message asks with besides its names and the words of asking for a contact ("project director") in the line
 * itself, and its names in the line or what the line leans on; a message asking with names alone has them in the
 * line. Not another person's address from the same list ("Jane Doe: jane@club.example" for John Smith's), nor the
 * number for reporting a water leak when a gas leak is asked about, nor a trust's address for the partner it names.
 */
export function writesContactFor(question: Question, candidate: Candidate): boolean {
  if (!contactAsked(question)?.(candidate.sentence)) return false;
  const asked = question.sequence.filter(
    (term) => !question.names.has(term) && !ASKING_FOR_CONTACT.has(term),
  );
  const names = [...question.names];
  if (asked.length === 0) return names.length > 0 && names.every((name) => candidate.stems.has(name));
  return (
    asked.every((term) => candidate.stems.has(term)) && names.every((name) => holdsOrLeansOn(candidate, name))
  );
}
