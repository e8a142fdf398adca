// Written by `node bench/train-responder.ts --write`; do not edit by hand.
// Trained on the training articles of the shared SQuAD half (every other article in name order); measured on the
// held-out articles, which it never saw: {"heldOut":{"goldAnswerContained":0.789,"medianReplyWords":45,"notFound":0.029},"sentenceAccuracy":0.703}
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
    'phrasesKept',
    'focusFound',
    'otherNameFound',
    'otherNumberFound',
    'answerNearTerms',
    'opensPassage',
    'coverageByRank',
    'variantCoverage',
    'rarestMissing',
    'sharpCoverage',
  ],
  weights: [
    3.179, 1.19, 3.315, 0.791, 0.804, 1.826, 0.68, -1.807, 1.493, 1.466, 1.569, 2.812, 1.402, -0.226, 0.289,
    0.151, 0.221, -0.23, -0.243, 0.907, 0.126, 1.721, 4.195, 1.054, 2.974,
  ],
  composition: { minimumScore: 5.16, confidence: 0.85, longestReplyWords: 80, mostSentences: 3 },
} as const;
