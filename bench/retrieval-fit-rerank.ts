/**
 * Fits the reranker's weights (daemon/retrieve/rerank.ts `DEFAULT_RERANK`) on TRAINING queries only: the
 * questions of SQuAD's training articles (bench/squad.ts) and SciFact's train claims. Each query form gets its own
 * weights, fitted on the training queries of that form (isQuestion decides, as in the daemon). Prints the weights
 * to commit and the figures of both splits; held-out figures are the result, training figures show the fit.
 *
 * The fit maximises, over queries with both relevant and other candidates, the softmax probability of the relevant
 * ones among the query's candidates: what rank 1 needs, unlike a loss over pairs, which also pays for order far
 * below the top. The answer share's weight is fitted the same way after them, on the training questions' first
 * passages as the fitted signals order them.
 */
import { createHashedEmbedder } from '../daemon/embed/hashed.ts';
import { DEFAULT_OVERLAP_TOKENS, DEFAULT_TARGET_TOKENS } from '../daemon/ingest/chunk.ts';
import { answerShares } from '../daemon/respond/answer-shares.ts';
import { DEFAULT_FUSION, fuse } from '../daemon/retrieve/fusion.ts';
import { isQuestion } from '../daemon/retrieve/query-form.ts';
import {
  ANSWER_DEPTH,
  DEFAULT_RERANK,
  type RerankModel,
  type RerankWeights,
  rerank,
  SIGNAL_NAMES,
} from '../daemon/retrieve/rerank.ts';
import { type RerankSignals, rerankSignals } from '../daemon/retrieve/rerank-signals.ts';
import type { ChunkHit } from '../daemon/store/chunk-index.ts';
import { buildIndex, CANDIDATES, corpusDirectory, isHeldOut, scoreWhere, toRanked } from './retrieval.ts';
import { isHit, loadQaSet, type QaSet, type Question } from './retrieval-data.ts';
import { softmax, softmaxAmong, standardisation } from './support.ts';

const RERANK_DEPTH = 50;
const STEPS = 600;
/** Adam's step size and decay rates (Kingma and Ba 2015), on standardised signals. */
const LEARNING_RATE = 0.05;
const FIRST_MOMENT_DECAY = 0.9;
const SECOND_MOMENT_DECAY = 0.999;
const L2 = 1e-4;

interface Prepared {
  set: QaSet;
  queries: {
    question: Question;
    fused: ChunkHit[];
    signals: RerankSignals[] | undefined;
    relevant: boolean[];
  }[];
}

async function prepare(name: QaSet['name']): Promise<Prepared> {
  const embedder = createHashedEmbedder();
  const set = loadQaSet(corpusDirectory, name, 1);
  const built = await buildIndex(set, embedder, DEFAULT_TARGET_TOKENS, DEFAULT_OVERLAP_TOKENS);
  const queries: Prepared['queries'] = [];
  for (const question of set.questions) {
    const [vector] = await embedder.embed([question.text], { kind: 'query' });
    const fused = fuse(
      await built.chunkIndex.fullTextSearch(question.text, 'bench', CANDIDATES),
      await built.chunkIndex.vectorSearch(vector!, 'bench', CANDIDATES),
      DEFAULT_FUSION,
    );
    const head = fused.slice(0, RERANK_DEPTH);
    queries.push({
      question,
      fused,
      signals: rerankSignals(question.text, head),
      relevant: head.map((hit) => isHit(set, question, { documentId: hit.sourceId, text: hit.text })),
    });
  }
  await built.dispose();
  return { set, queries };
}

const vectorOf = (signals: RerankSignals) => SIGNAL_NAMES.map((name) => signals[name]);

interface Example {
  features: number[][];
  relevant: boolean[];
}

/** The gradient of the mean negative log softmax probability of each query's relevant candidates. */
function lossGradient(examples: Example[], weights: number[]): number[] {
  const gradient = weights.map(() => 0);
  for (const { features, relevant } of examples) {
    const scores = features.map((row) => row.reduce((sum, value, index) => sum + value * weights[index]!, 0));
    const all = softmax(scores);
    const wanted = softmaxAmong(scores, relevant);
    features.forEach((row, position) => {
      const slope = all[position]! - wanted[position]!;
      row.forEach((value, index) => {
        gradient[index]! += slope * value;
      });
    });
  }
  return gradient.map((sum, index) => sum / examples.length + L2 * weights[index]!);
}

/**
 * Adam on the standardised features, then mapped back to weights of the raw features. Centring shifts every
 * candidate of a query by the same amount, so dropping it changes no ranking.
 */
function fitLinear(examples: Example[]): number[] {
  // On one scale: plain gradient descent on the raw signals, whose spreads differ tenfold, had not converged after
  // 600 steps (SQuAD held-out hit@1 0.873 against 0.880 converged).
  const { means, deviations } = standardisation(examples.flatMap(({ features }) => features));
  const standardised = examples.map(({ features, relevant }) => ({
    features: features.map((row) => row.map((value, index) => (value - means[index]!) / deviations[index]!)),
    relevant,
  }));
  const weights = means.map(() => 0);
  const firstMoments = weights.map(() => 0);
  const secondMoments = weights.map(() => 0);
  for (let step = 1; step <= STEPS; step++) {
    lossGradient(standardised, weights).forEach((slope, index) => {
      firstMoments[index] = FIRST_MOMENT_DECAY * firstMoments[index]! + (1 - FIRST_MOMENT_DECAY) * slope;
      secondMoments[index] =
        SECOND_MOMENT_DECAY * secondMoments[index]! + (1 - SECOND_MOMENT_DECAY) * slope ** 2;
      const first = firstMoments[index]! / (1 - FIRST_MOMENT_DECAY ** step);
      const second = secondMoments[index]! / (1 - SECOND_MOMENT_DECAY ** step);
      weights[index]! -= (LEARNING_RATE * first) / (Math.sqrt(second) + 1e-8);
    });
  }
  return weights.map((weight, index) => weight / deviations[index]!);
}

function fitWeights(examples: Example[]): RerankWeights {
  const weights = fitLinear(examples);
  const fitted = { ...DEFAULT_RERANK.questions };
  SIGNAL_NAMES.forEach((name, index) => {
    fitted[name] = Math.round(weights[index]! * 100) / 100;
  });
  return fitted;
}

/**
 * The weight of the answer share against the signals' score (rerank.ts `answerShare`), fitted on the training
 * questions' first passages as the signals order them: what the second look can change.
 */
function fitAnswerShare(prepared: Prepared[], model: Omit<RerankModel, 'answerShare'>): number {
  const examples = prepared.flatMap(({ set, queries }) =>
    queries
      .filter(({ question }) => !isHeldOut(set, question) && isQuestion(question.text))
      .flatMap(({ question, fused }): Example[] => {
        const head = rerank(question.text, fused, { ...model, answerShare: 0 }).slice(0, ANSWER_DEPTH);
        const relevant = head.map((hit) =>
          isHit(set, question, { documentId: hit.sourceId, text: hit.text }),
        );
        if (!relevant.includes(true) || !relevant.includes(false)) return [];
        const shares = answerShares(question.text, undefined, head);
        return [{ features: head.map((hit, position) => [hit.score, shares[position]!]), relevant }];
      }),
  );
  const [score, share] = fitLinear(examples);
  return Math.round((share! / score!) * 1000) / 1000;
}

function trainingExamples(prepared: Prepared[], questions: boolean) {
  return prepared.flatMap(({ set, queries }) =>
    queries
      .filter(({ question }) => !isHeldOut(set, question) && isQuestion(question.text) === questions)
      .filter(({ signals, relevant }) => signals && relevant.includes(true) && relevant.includes(false))
      .map(({ signals, relevant }): Example => ({ features: signals!.map(vectorOf), relevant })),
  );
}

function figures(prepared: Prepared[], model: RerankModel | false) {
  return Object.fromEntries(
    prepared.map(({ set, queries }) => {
      const rankings = queries.map(({ question, fused }) =>
        toRanked(model === false ? fused : rerank(question.text, fused, model)),
      );
      return [
        set.name,
        {
          heldOut: scoreWhere(set, rankings, (question) => isHeldOut(set, question)),
          training: scoreWhere(set, rankings, (question) => !isHeldOut(set, question)),
        },
      ];
    }),
  );
}

const prepared = [await prepare('squad'), await prepare('scifact')];
const signalWeights = {
  questions: fitWeights(trainingExamples(prepared, true)),
  statements: fitWeights(trainingExamples(prepared, false)),
};
const model: RerankModel = { ...signalWeights, answerShare: fitAnswerShare(prepared, signalWeights) };
console.log(
  JSON.stringify({ model, reranked: figures(prepared, model), fused: figures(prepared, false) }, null, 2),
);
