import { describe, expect, it } from 'vitest';
import {
  ANSWERABILITY_FEATURES,
  answerabilityFeatures,
  answers,
} from '../../daemon/respond/answerability.ts';
import { rankSentences } from '../../daemon/respond/extract.ts';
import { readQuestion } from '../../daemon/respond/question.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';

const passages: ContextPassage[] = [
  {
    number: 1,
    sourceName: 'lighthouse.md',
    sourceId: 'src_1',
    page: 1,
    text: 'The lighthouse was built in 1868 on the northern cape. Its lamp burned whale oil until 1901.',
    score: 0.8,
  },
  {
    number: 2,
    sourceName: 'harbour.md',
    sourceId: 'src_2',
    page: 1,
    text: 'The harbour master keeps the keeper’s logbooks, which go back to the opening of the station.',
    score: 0.4,
  },
];

function featuresOf(
  message: string,
  context?: string,
): Record<(typeof ANSWERABILITY_FEATURES)[number], number> {
  const question = readQuestion(message, context);
  const [best] = rankSentences(question, passages);
  const features = answerabilityFeatures(question, passages, best!);
  return Object.fromEntries(ANSWERABILITY_FEATURES.map((name, index) => [name, features[index]!])) as Record<
    (typeof ANSWERABILITY_FEATURES)[number],
    number
  >;
}

describe('answerability', () => {
  it('reads how much of the question the best sentence, the first passage and all passages hold', () => {
    const features = featuresOf('When was the lighthouse on the cape built?');
    expect(features.termsInBestSentence).toBe(1);
    expect(features.termsInFirstPassage).toBe(1);
    expect(features.termsInPassages).toBe(1);

    // "logbooks" is only in the second passage; "weather" is nowhere.
    const spread = featuresOf('Do the lighthouse logbooks record the weather?');
    expect(spread.termsInFirstPassage).toBeCloseTo(1 / 4);
    expect(spread.termsInPassages).toBeCloseTo(2 / 4);
  });

  it("leaves out the asker's own state: what they want, need or know, and whether", () => {
    // Counted, "want", "know" and "whether" would leave the sentence holding 3 of the question's 6 words.
    const features = featuresOf('I want to know whether the lighthouse was built on the cape.');
    expect(features.termsInBestSentence).toBe(1);
    expect(features.termsInFirstPassage).toBe(1);
    // What is left of "doesn't" is no word of the question either.
    expect(featuresOf("Why doesn't the lamp burn whale oil?").termsInBestSentence).toBe(1);
    // "going" as in "how is it going", but not naming a ship.
    expect(featuresOf('How is the lighthouse on the cape going?').termsInBestSentence).toBe(1);
    expect(featuresOf('Was the Going Merry built on the cape?').termsInFirstPassage).toBeCloseTo(1 / 2);
    // Said of someone else, "need" is what the question asks about, and "known" what the answer says.
    expect(featuresOf('What did the lighthouse keepers need?').termsInFirstPassage).toBeCloseTo(1 / 3);
    expect(featuresOf('What was the lighthouse known as?').termsInFirstPassage).toBeCloseTo(1 / 2);
  });

  it('counts the words of the turn a follow-up refers to less than its own', () => {
    // Own terms "oil", "burn" weigh 1; the context's "lighthouse", "built" a half each, and the best sentence
    // lacks both: 2 of 3, where counted fully they would leave it 2 of 4.
    const followUp = featuresOf('and what oil did it burn?', 'When was the lighthouse built?');
    expect(followUp.termsInBestSentence).toBeCloseTo(2 / 3);
    const unrelated = featuresOf('and what fuel did the ferry use?', 'When was the lighthouse built?');
    expect(unrelated.termsInFirstPassage).toBeCloseTo(1 / 4);
  });

  it('answers when the weighted features reach the bias, and not below', () => {
    const answerability = { weights: [1, 0, 0, 2, 0], bias: -3 };
    expect(answers(answerability, [1, 0, 0, 1, 0])).toBe(true);
    expect(answers(answerability, [0.9, 0, 0, 1, 0])).toBe(false);
  });
});
