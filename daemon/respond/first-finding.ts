/**
 * Where a question's form says more than the sentence model weighs, the finding it calls for is put first: a
 * sentence stating the question in its own words; for a question asking where to go to do something, the best
 * writing a web address; for one asking how much, the best holding an amount; for one asking how old someone is,
 * the best stating their age; for one asking who holds a role, one naming a person by title and the role; for one
 * asking for a phone number or an e-mail address, the best writing one; for one asking what a tool does, the best
 * stating its default; for one asking how to do something, a sentence saying what to do rather than what does not
 * happen, and code showing it; for one asking for a field a form fills in, the line filling it in.
 */
import { answerOfKind } from '../text/answer-kind.ts';
import { FENCE, LIST_ITEM } from '../text/sentences.ts';
import { writesWebAddress } from '../text/web-address.ts';
import { type Candidate, headingOver, saidBy, sourceOf, termsHeldBySourceOf } from './candidates.ts';
import { contactAsked } from './contacts.ts';
import { contentStems } from './content-words.ts';
import type { Finding } from './extract.ts';
import { fieldAsked } from './fields.ts';
import { AUXILIARY, BE, type Question, WH } from './question.ts';

/**
 * The findings, with the one the question's form calls for (`statedFirst`, `addressFirst`, `amountFirst`,
 * `ageFirst`, `titledFirst`, `contactFirst`, `defaultFirst`, `affirmedFirst`, `codeFirst`, `fieldFirst`) first.
 */
export function firstFindingFirst(question: Question, ranked: Finding[]): Finding[] {
  return fieldFirst(
    question,
    codeFirst(
      question,
      affirmedFirst(
        question,
        defaultFirst(
          question,
          contactFirst(
            question,
            titledFirst(
              question,
              ageFirst(
                question,
                amountFirst(question, addressFirst(question, statedFirst(question, ranked))),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** "How do I...", "How can I...", "how to...": a question asking how to do something, as a pattern's source. */
const HOW_TO_DO = String.raw`\bhow\s+(?:to|${AUXILIARY}\s+(?:i|we|you|one))\b`;
/**
 * "How do I...", "how to...", "Can I...", "What should I do to...", "Is there a way to...": a question asking what to
 * do, not what a thing does.
 */
const ASKS_WHAT_TO_DO = new RegExp(
  String.raw`${HOW_TO_DO}|(?:^\W*|\bwhat\s+)${AUXILIARY}\s+(?:i|we|you|one)\b|\bis\s+there\s+a\s+way\b|\bis\s+it\s+possible\b`,
  'i',
);
/**
 * A sentence stating what a thing does unless told otherwise. Only opening it: at a sentence's end "by default" is
 * as often what happens for want of anything else ("Li reached the final by default.").
 */
const STATES_DEFAULT = /^by\s+default\b/i;
/** How far down the ranking a sentence stating a default is looked for. */
const DEFAULT_DEPTH = 10;

/**
 * "How does Mammoth convert bold text?", "Does Mammoth include Word comments in the HTML?" ask what a tool does,
 * which its documentation states as its default: "By default, bold text is wrapped in `<strong>` tags." The
 * sentences around it, saying how to change it ("For instance, to wrap bold text in `<em>` tags:"), hold as much
 * of the question and more code. For a question asking for no amount, date, place or name, nor what to do, the
 * best sentence stating a default that holds as many of the question's words as the best sentence (the names it
 * uses aside) comes first, if its source is the best sentence's or holds more of the question's words: another
 * tool's default answers nothing asked of the first ("By default, the underlining of any text is ignored", of
 * Mammoth's read-me, for "Which kinds of text emphasis does the sample Word document show off?", where the read-me
 * holds "emphasis" as the sample holds "sample").
 */
function defaultFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  if (!best || question.kind !== 'other' || ASKS_WHAT_TO_DO.test(question.text)) return ranked;
  const held = askedTermsHeld(question);
  // The first stating a default that holds as many as the best, then any holding more.
  let most = Math.max(1, held(best.candidate)) - 1;
  let chosen = -1;
  // Counted only when a sentence states a default: most questions' findings hold none.
  let heldBy: ((candidate: Candidate) => number) | undefined;
  ranked.slice(0, DEFAULT_DEPTH).forEach(({ candidate }, index) => {
    if (!STATES_DEFAULT.test(candidate.sentence.replace(LIST_ITEM, ''))) return;
    const count = held(candidate);
    if (count <= most) return;
    heldBy ??= questionTermsHeldBySource(question, ranked);
    const otherSource = sourceOf(candidate) !== sourceOf(best.candidate);
    if (heldBy(candidate) < heldBy(best.candidate) + (otherSource ? 1 : 0)) return;
    most = count;
    chosen = index;
  });
  return movedFirst(ranked, chosen);
}

/**
 * A question asking about an act: with an auxiliary ("Where should...", "How did...") or ending in a passive's
 * participle ("Where is the Louvre located?"). Its words then hold a verb: "What is COUNTER's Code of Practice?"
 * and "Where is the Golden Gate Bridge?" hold only a name, which any sentence going on from it would state.
 */
const ASKS_ABOUT_AN_ACT = new RegExp(
  String.raw`^\W*${WH}\s+(?:${AUXILIARY}\b|${BE}\s.*\s\p{Ll}{3,}ed\W*$)`,
  'iu',
);

/** Fewer words than this in a run are a phrase many sentences hold: "install Node". */
const STATED_TERMS = 3;

/**
 * A sentence saying what a question asks in its own words, in its order, and going on: "Where should the org folder
 * be placed?" is answered by "The org folder should be placed under web root.", not by the three sentences the model
 * prefers for holding a place ("...if you place the org folder under the client folder"). The model weighs phrases
 * as pairs of neighbouring words; a sentence holding all of a question's words as one run, followed by more, is the
 * question stated with its answer.
 */
function statedFirst(question: Question, ranked: Finding[]): Finding[] {
  const asked = question.sequence;
  if (asked.length < STATED_TERMS || !ASKS_ABOUT_AN_ACT.test(question.text)) return ranked;
  return movedFirst(
    ranked,
    ranked.findIndex(({ candidate }) => !candidate.heading && states(asked, candidate.sequence)),
  );
}

/**
 * "How fast was the avalanche moving?" asks for an amount, which a sentence without one cannot say: "Well, you're
 * mouth moves fast enough" holds more of the question's words than "...its shattered pieces moving about 50 m.p.h.",
 * and the model's weight for holding the kind of thing asked for was fitted on every question asking for a number.
 * The best sentence holding an amount, and some of the question, comes first; not one from a source holding fewer
 * of the question's words than the best sentence's ("It probably weighed about 11 million pounds", of an avalanche,
 * for "How much does the lap pad weigh?").
 */
function amountFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  if (question.kind !== 'measure' || !best) return ranked;
  const heldBy = questionTermsHeldBySource(question, ranked);
  const holdsAsMuch = (candidate: Candidate) => heldBy(candidate) >= heldBy(best.candidate);
  return movedFirst(
    ranked,
    ranked.findIndex(
      ({ candidate, coverage }) =>
        coverage > 0 &&
        holdsAsMuch(candidate) &&
        answerOfKind(saidBy(candidate), 'measure', question.known, question.names) !== undefined,
    ),
  );
}

/**
 * "Where can I read...", "And where do I report...": a question asking where one goes to do something, which a web
 * address may answer; not where a thing is ("Where is the Louvre?", "Where should the org folder be placed?").
 */
const WHERE_TO_GO =
  /^\W*(?:(?:and|so)\s+)?where\s+(?:can|could|do|should|may|might|would)\s+(?:i|we|you|one)\b/i;
/** How far down the ranking a sentence writing a web address is looked for. */
const ADDRESS_DEPTH = 10;

/**
 * "Where can I read about Tika's security policy?" is answered in a software's documentation by a web address: "See
 * [SECURITY.md](SECURITY.md) and <https://tika.apache.org/security.html>." holds fewer of the question's words than a
 * changelog's "...so it's OK to run Tika with a security policy that does not allow execution of external
 * processes". For a question asking where one goes to do something, whose best sentence writes no address, the
 * best writing one, and some of the question, comes first.
 */
function addressFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  if (!best || !WHERE_TO_GO.test(question.text) || writesWebAddress(saidBy(best.candidate))) return ranked;
  return movedFirst(
    ranked,
    ranked
      .slice(0, ADDRESS_DEPTH)
      .findIndex(({ candidate, coverage }) => coverage > 0 && writesWebAddress(saidBy(candidate))),
  );
}

/** "How old was Jim Jack?", "At what age did she...": a person's age, which no other word of the question says. */
const AGE_ASKED = /^\W*(?:how\s+old\b|(?:at\s+)?what\s+age\b)/i;

/**
 * An age as written of a person: "a 53-year-old diver", "aged 46", "at the age of 46", "at age 46", "At 46, he
 * was..." (not "at 2,400 meters"), "46 years old", and a caption's or a name's "46," ("Jim Jack, 46, of Tahoe"; "46,
 * Head judge" under the heading "Jim Jack").
 */
const AGE =
  /\b\d{1,3}-years?-old\b|\b\d{1,3}\s+years?\s+old\b|\baged\s+\d{1,3}\b|\bat\s+(?:the\s+)?age\s+(?:of\s+)?\d{1,3}\b|\bat\s+\d{1,3}(?=,\s)|(?:^|\p{L},\s)\d{1,3},\s/iu;

/**
 * "How old was Jim Jack?" is answered by a sentence with his age, which shares no word with the question but his
 * name: "he had these old Smith poles" holds more of it than "46, Head judge of the Freeskiing World Tour" under the
 * heading "Jim Jack". The best sentence stating an age that holds every name the question uses, or sits under a
 * heading holding them, comes first.
 */
function ageFirst(question: Question, ranked: Finding[]): Finding[] {
  if (question.names.size === 0 || !AGE_ASKED.test(question.text)) return ranked;
  // The heading is looked for, once, only when the sentence states an age without every name: it reads the
  // passage's text.
  const named = (candidate: Candidate) => {
    const missing = [...question.names].filter((name) => !candidate.stems.has(name));
    if (missing.length === 0) return true;
    const heading = new Set(contentStems(headingOver(candidate) ?? ''));
    return missing.every((name) => heading.has(name));
  };
  return movedFirst(
    ranked,
    ranked.findIndex(({ candidate }) => AGE.test(saidBy(candidate)) && named(candidate)),
  );
}

/**
 * "What phone number does the Western Union e-mail give for the agent?" is answered by a line holding none of its
 * words but the number ("Mobile:+229 97292685"); "...and your cell phone number for urgent communication" holds
 * most of them. The best finding writing the kind of contact asked for comes first, when it holds some of the
 * question (with the lines it leans on), of a source holding as many of the question's words as the best one's.
 */
function contactFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  const writes = contactAsked(question);
  if (!best || writes === undefined) return ranked;
  const heldBy = questionTermsHeldBySource(question, ranked);
  return movedFirst(
    ranked,
    ranked.findIndex(
      ({ candidate, coverage }) =>
        coverage > 0 && heldBy(candidate) >= heldBy(best.candidate) && writes(candidate.sentence),
    ),
  );
}

/** A person's name after a title: "Dr J Malins", "Mrs.Cecil Edward", "Prof. Ada Chen"; not "Dr Who", a series. */
const TITLED_NAME = /\b(?:Dr|Mr|Mrs|Ms|Prof|Rev|Sir|Dame)\b\.?\s*(?!Who\b)\p{Lu}/u;
/** "Who is the principal investigator of...?": the role a question asks who holds. */
const ROLE_ASKED =
  /^\W*who\s+(?:is|was|are|were)\s+(?:the\s+)?(?<role>[^?]{1,80}?)(?=\s+(?:of|for|in|at|on|behind|from|with)\b|\s*\?|\s*$)/i;
/** How far below the best a sentence naming a person by title may be scored and still come before it. */
const TITLED_MARGIN = 3;

/**
 * "Who is the principal investigator of the collaborative design proposal?" asks for a person, whom a form names
 * with a title ("1.Dr J Malins Gray's School of Art PRINCIPAL INVESTIGATOR"), while its lines asking for one ("TO BE
 * COMPLETED BY PRINCIPAL INVESTIGATOR") hold the question's words as well, in capitals that read as names. For a
 * question asking who holds a role, when the best sentence names nobody by title, nor names a person and the role,
 * the best that does and names the role, scored within a margin of it, comes first. Not for "Who designed the
 * bridge?", whose answer names no role.
 */
function titledFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  const role = ROLE_ASKED.exec(question.text)?.groups?.['role'];
  if (!best || role === undefined || TITLED_NAME.test(best.candidate.sentence)) return ranked;
  const roleTerms = contentStems(role);
  const holdsRole = (candidate: Candidate) => roleTerms.every((roleTerm) => candidate.stems.has(roleTerm));
  // "Jo Smith is the chair of the harbour board." names the holder already, without a title; a form's capitals
  // ("TO BE COMPLETED BY PRINCIPAL INVESTIGATOR") read as a name, but name nobody.
  const person = answerOfKind(best.candidate.sentence, 'person', question.known, question.names);
  const named = person !== undefined && /\p{Ll}/u.test(person);
  if (roleTerms.length === 0 || (named && holdsRole(best.candidate))) return ranked;
  return firstWithin(
    ranked,
    TITLED_MARGIN,
    ({ candidate }) => TITLED_NAME.test(candidate.sentence) && holdsRole(candidate),
  );
}

/** "not", "n't", "never", "no longer": a sentence saying what does not happen. */
const NEGATION = /\b(?:not|never|no\s+longer|cannot)\b|n['’]t\b/i;
/** How far below the best a sentence saying what to do may be scored and still come before one saying what does not. */
const AFFIRMED_MARGIN = 1;

/**
 * "How do I match small caps text in a Mammoth style map?" asks what to do, which a sentence saying what does not
 * happen cannot tell: "It will not match any text that is small caps because of its paragraph or run style." holds
 * more of the question than "Match explicitly small caps text:" and its value, which the model scores a little lower.
 * For a question asking how to do something, and saying no "not" itself, the best sentence saying none that is scored
 * nearly as well as a best one saying "not", and holds nearly as much of the question, comes first. So does one
 * telling what to do (`instructs`) before a best one that does not: "One way to create a slide show is to simply
 * upload a folder of images..." before "If your folder was named "foo", you have created a slide show named foo."
 */
function affirmedFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  if (!best || !asksHowToDo(question)) return ranked;
  const bestNegates = negates(best.candidate.sentence);
  if (!bestNegates && instructs(best.candidate.sentence)) return ranked;
  return firstWithin(
    ranked,
    AFFIRMED_MARGIN,
    ({ candidate, coverage }) =>
      coverage >= AFFIRMED_COVERAGE * best.coverage &&
      !negates(candidate.sentence) &&
      (bestNegates || instructs(candidate.sentence)),
  );
}

/** `HOW_TO_DO` alone: not "Can I..." nor "Is it possible...", which a sentence saying what cannot be done answers. */
const ASKS_HOW_TO_DO = new RegExp(HOW_TO_DO, 'i');

/**
 * A question asking how to do something, saying no "not" itself: a sentence saying what does not happen answers
 * none. (`codeFirst` reads `ASKS_HOW_TO_DO` alone: code answers "How do I stop...?" too.)
 */
export function asksHowToDo(question: Question): boolean {
  return ASKS_HOW_TO_DO.test(question.text) && !NEGATION.test(question.text);
}

/** The share of the best one's coverage a sentence put before it must hold. */
const AFFIRMED_COVERAGE = 0.8;

/**
 * Whether a sentence says what does not happen, before any clause of purpose: "Set it to off so the server doesn't
 * log passwords." says what to do.
 */
export function negates(sentence: string): boolean {
  const purpose = sentence.search(/\b(?:so|so that|in order to|to avoid|to prevent)\b/i);
  return NEGATION.test(purpose < 0 ? sentence : sentence.slice(0, purpose));
}

/**
 * A sentence telling the reader what to do: it opens with a verb of doing, bare ("Request the previous format
 * explicitly: tika-app -x/--xml..."), after "simply" or "please", or after a clause of purpose ("To refresh the
 * cache, visit..."). Verbs that name things as often ("Set", "Open", "Check") are read as verbs here: a sentence
 * opening with one is an instruction far more often than a noun phrase in documentation, unless a verb or "of"
 * follows it, or a number and a verb ("Use of the option was removed.", "Go is a language.", "Type 2 diabetes is
 * common."); "Press 0 on the keypad" is one.
 */
const INSTRUCTION =
  /^(?:[-*+]\s+|\d+[.)]\s+)?(?:to\s+[^,.]{1,60},\s+)?(?:(?:simply|just|please|then)\s+)?(?:use|run|set|add|request|pass|call|install|open|click|select|choose|enter|type|edit|change|remove|delete|specify|configure|enable|disable|visit|go|try|start|stop|restart|upload|download|copy|replace|create|put|include|switch|turn|press|navigate|follow|contact|send|check|ensure|make\s+sure|append|write|save|load|import|export|define|register|upgrade|update)\b(?!\s+(?:of|is|was|are|were|has|had|will|can)\b|[\s-]*\d[\d.]*\s+(?:\w+\s+)?(?:is|was|are|were|has|had|\w+ed)\b)/i;

/**
 * Advice in the second person, or the way to do something, anywhere in a sentence: "...you may wish to consider
 * isolating any calls to Mammoth", "One way to create a slide show is to simply upload a folder...".
 */
const ADVICE =
  /\byou\s+(?:should|must|need\s+to|(?:may|might)\s+(?:wish|want)\s+to)\b|\b(?:we\s+)?recommend(?:ed)?\b|\bconsider\s+\w+ing\b|\bways?\s+to\s+[^.]{1,80}?\s(?:is|are)\s+(?:to|by)\b/i;

/** Whether a sentence tells the reader what to do: an instruction or advice. */
export function instructs(sentence: string): boolean {
  return INSTRUCTION.test(sentence) || ADVICE.test(sentence);
}

/** How far below the best a code block may be scored and still come before it. */
const CODE_MARGIN = 1;

/**
 * "How do I get plain text instead of Markdown from the Tika command line?" asks what to type, which a block of code
 * shows: "java -jar tika-app-<version>.jar --text document.pdf # plain text" holds what is asked in the question's
 * words. The model, fitted on prose, prefers the sentence saying where the command line is run. For a question asking
 * how to do something, the best code block scored nearly as well as the best sentence, and holding as many of the
 * question's words as it (the names it uses aside), comes first.
 */
function codeFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  if (!best || !ASKS_HOW_TO_DO.test(question.text) || FENCE.test(best.candidate.sentence)) return ranked;
  const held = askedTermsHeld(question);
  // One word at least: a bare "npm test" block holds as many as a best sentence holding none.
  const least = Math.max(1, held(best.candidate));
  return firstWithin(
    ranked,
    CODE_MARGIN,
    ({ candidate }) => FENCE.test(candidate.sentence) && held(candidate) >= least,
  );
}

/** How far below the best a line filling in the field asked for may be scored and still come before it. */
const FIELD_MARGIN = 3;

/**
 * "How many copies of the application does the funder want?" is answered by the form's "Number of Copies: 9", which
 * the model scores 2.6 under the line asking for it ("Please state below how many copies (plus the original) the
 * funder requires...") for holding fewer of the question's words. For a question asking for a field (fields.ts),
 * the best line of the best sentence's source filling it in, scored nearly as well, comes first. A field scored
 * much lower is not what is asked: "Port: 8080" is 6.4 under "The admin console listens on port 9090 by default."
 * for "Which port does the admin console listen on?", "Version: 2.9.1" 4.3 under "Tika requires Python 3.8" for
 * "What version of Python does Tika require?".
 */
function fieldFirst(question: Question, ranked: Finding[]): Finding[] {
  const best = ranked[0];
  const fillsField = fieldAsked(question);
  if (!best || !fillsField) return ranked;
  return firstWithin(
    ranked,
    FIELD_MARGIN,
    ({ candidate }) => sourceOf(candidate) === sourceOf(best.candidate) && fillsField(candidate),
  );
}

/**
 * How many of the question's words a sentence holds, the names it uses aside: those tell its source, not its
 * answer.
 */
function askedTermsHeld(question: Question): (candidate: Candidate) => number {
  const asked = [...question.terms.keys()].filter((term) => !question.names.has(term));
  return (candidate) => asked.filter((term) => candidate.stems.has(term)).length;
}

/** The findings with the first that `called` picks, of those scored within `margin` of the best, moved first. */
function firstWithin(ranked: Finding[], margin: number, called: (finding: Finding) => boolean): Finding[] {
  const floor = (ranked[0]?.score ?? 0) - margin;
  return movedFirst(
    ranked,
    ranked.findIndex((finding) => finding.score >= floor && called(finding)),
  );
}

/** How many of the question's terms the findings of a finding's source hold between them. */
function questionTermsHeldBySource(question: Question, ranked: Finding[]): (candidate: Candidate) => number {
  return termsHeldBySourceOf(
    ranked.map((finding) => finding.candidate),
    question.terms.keys(),
  );
}

function movedFirst(ranked: Finding[], index: number): Finding[] {
  return index <= 0 ? ranked : [ranked[index]!, ...ranked.slice(0, index), ...ranked.slice(index + 1)];
}

/** Whether `sequence` holds all of `asked` as one run, with content words after it. */
function states(asked: readonly string[], sequence: readonly string[]): boolean {
  for (let start = 0; start + asked.length < sequence.length; start++)
    if (asked.every((term, offset) => sequence[start + offset] === term)) return true;
  return false;
}
