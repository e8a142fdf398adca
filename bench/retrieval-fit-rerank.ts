/**
 * Fits the reranker's weights (daemon/retrieve/rerank.ts `DEFAULT_RERANK`) on TRAINING queries only: the
 * questions of SQuAD's training articles (bench/squad.ts) and SciFact's train claims. Each query form gets its own
 * weights, fitted on the training queries of that form (isQuestion decides, as in the daemon). Prints the weights
 * to commit and the figures of both splits; held-out figures are the result, training figures show the fit.
 *
 * The fit maximises, over queries with both relevant and other candidates, the softmax probability of the relevant
 * ones among the query's candidates: what rank 1 needs, unlike a loss over pairs, which also pays for order far
 * below the top.
 */
import { createHashedEmbedder } from '../daemon/embed/hashed.ts';
import { DEFAULT_OVERLAP_TOKENS, DEFAULT_TARGET_TOKENS } from '../daemon/ingest/chunk.ts';
import { DEFAULT_FUSION, fuse } from '../daemon/retrieve/fusion.ts';
import { isQuestion } from '../daemon/retrieve/query-form.ts';
import {
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

const RERANK_DEPTH = 50;
const STEPS = 600;
const LEARNING_RATE = 2;
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

/** Full-batch gradient descent on the mean negative log softmax probability of each query's relevant candidates. */
function fitWeights(examples: { features: number[][]; relevant: boolean[] }[]): RerankWeights {
  const weights: number[] = SIGNAL_NAMES.map((name) => (name === 'fused' ? 1 : 0));
  for (let step = 0; step < STEPS; step++) {
    const gradient = weights.map(() => 0);
    for (const { features, relevant } of examples) {
      const scores = features.map((row) =>
        row.reduce((sum, value, index) => sum + value * weights[index]!, 0),
      );
      const top = Math.max(...scores);
      const exponents = scores.map((score) => Math.exp(score - top));
      const all = exponents.reduce((sum, value) => sum + value, 0);
      const wanted = exponents.reduce((sum, value, index) => sum + (relevant[index] ? value : 0), 0);
      features.forEach((row, position) => {
        const slope = exponents[position]! / all - (relevant[position] ? exponents[position]! / wanted : 0);
        row.forEach((value, index) => {
          gradient[index]! += slope * value;
        });
      });
    }
    weights.forEach((weight, index) => {
      weights[index] = weight - LEARNING_RATE * (gradient[index]! / examples.length + L2 * weight);
    });
  }
  const fitted = { ...DEFAULT_RERANK.questions };
  SIGNAL_NAMES.forEach((name, index) => {
    fitted[name] = Math.round(weights[index]! * 100) / 100;
  });
  return fitted;
}

function trainingExamples(prepared: Prepared[], questions: boolean) {
  return prepared.flatMap(({ set, queries }) =>
    queries
      .filter(({ question }) => !isHeldOut(set, question) && isQuestion(question.text) === questions)
      .filter(({ signals, relevant }) => signals && relevant.includes(true) && relevant.includes(false))
      .map(({ signals, relevant }) => ({ features: signals!.map(vectorOf), relevant })),
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
const model: RerankModel = {
  questions: fitWeights(trainingExamples(prepared, true)),
  statements: fitWeights(trainingExamples(prepared, false)),
};
console.log(
  JSON.stringify({ model, reranked: figures(prepared, model), fused: figures(prepared, false) }, null, 2),
);
