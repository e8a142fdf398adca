// Written by `node bench/train-responder.ts --write`; do not edit by hand.
// Trained on the training articles of the shared SQuAD half (every other article in name order); measured on the
// held-out articles, which it never saw: {"heldOut":{"goldAnswerContained":0.767,"medianReplyWords":46,"notFound":0.037},"sentenceAccuracy":0.702}
export const SENTENCE_WEIGHTS = {
  features: [
    'coverage',
    'coverageSquared',
    'previousCoverage',
    'nextCoverage',
    'pronounPrevious',
    'density',
    'compactness',
    'similarity',
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
    4.62, 3.052, 3.39, 0.696, 0.851, 1.734, 0.619, 2.89, -1.715, 1.772, 1.827, 1.842, 3.003, 1.898, -0.367,
    0.335,
  ],
  composition: { minimumScore: 4.92, supportMargin: 5, longestReplyWords: 75 },
} as const;
