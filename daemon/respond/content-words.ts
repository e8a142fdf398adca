/**
 * The words that count when a question is matched to sentences: content words, less the words a question frames
 * its ask with.
 */
import { isStopWord as isFunctionWord, term, words } from '../text/words.ts';

/** Words a question frames its ask with ("what is it called", "which kind"), which no answer needs to contain. */
const QUESTION_FRAME = new Set(
  'whose s t name named called many much kind type one ones according'.split(' '),
);

export function isStopWord(word: string): boolean {
  return isFunctionWord(word) || QUESTION_FRAME.has(word);
}

/** Content words as matching terms, an irregular verb's past met with its other forms ("wore", "wearing"). */
export function contentStems(text: string): string[] {
  return words(text)
    .filter((word) => !isStopWord(word))
    .map((word) => term(IRREGULAR_PAST.get(word) ?? word));
}

/** Irregular pasts and participles that the suffix stemmer cannot bring to their verb: common in prose. */
const IRREGULAR_PAST = new Map(
  `wore:wear worn:wear won:win began:begin begun:begin built:build led:lead made:make took:take taken:take
gave:give given:give found:find held:hold sold:sell thought:think brought:bring bought:buy fought:fight
chose:choose chosen:choose grew:grow grown:grow knew:know known:know wrote:write written:write spoke:speak
spoken:speak risen:rise fell:fall fallen:fall lost:lose met:meet paid:pay ran:run sent:send spent:spend
stood:stand taught:teach told:tell went:go gone:go came:come became:become got:get gotten:get drew:draw
drawn:draw drove:drive driven:drive ate:eat eaten:eat flew:fly flown:fly forgot:forget forgotten:forget
froze:freeze frozen:freeze hid:hide hidden:hide kept:keep laid:lay meant:mean sang:sing sung:sing sank:sink
sunk:sink sat:sit slept:sleep stole:steal stolen:steal struck:strike swore:swear threw:throw thrown:throw
woke:wake fed:feed felt:feel fled:flee heard:hear hung:hang shot:shoot shook:shake shaken:shake seen:see
broke:break broken:break spun:spin stuck:stick swept:sweep beaten:beat bitten:bite blew:blow blown:blow
bred:breed dealt:deal dug:dig drank:drink drunk:drink forbade:forbid forbidden:forbid forgave:forgive
forgiven:forgive lent:lend rode:ride ridden:ride rang:ring rung:ring sought:seek shone:shine shrank:shrink
slid:slide sprang:spring strove:strive swam:swim swum:swim tore:tear torn:tear undertook:undertake
undertaken:undertake withdrew:withdraw withdrawn:withdraw overthrew:overthrow overthrown:overthrow`
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]),
);
