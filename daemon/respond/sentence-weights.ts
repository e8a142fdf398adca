// Written by `node bench/train-responder.ts --write`; do not edit by hand.
// Trained on the training articles of the shared SQuAD half (every other article in name order); measured on the
// held-out articles, which it never saw: {"heldOut":{"goldAnswerContained":0.762,"medianReplyWords":46,"notFound":0.04},"sentenceAccuracy":0.693}
export const SENTENCE_WEIGHTS = {
  features: [
    'coverage',
    'coverageSquared',
    'previousCoverage',
    'nextCoverage',
    'pronounPrevious',
    'density',
    'compactness',
    'novelty',
    'dateFound',
    'numberFound',
    'nameFound',
    'passageScore',
    'passageRank',
    'short',
    'long',
  ],
  weights: [
    5.044, 3.408, 3.237, 0.591, 0.801, 2.604, 0.709, -2.583, 1.744, 1.812, 1.862, 3.08, 1.985, -0.455, 0.368,
  ],
  composition: { minimumScore: 3.96, supportMargin: 5, longestReplyWords: 75 },
} as const;
