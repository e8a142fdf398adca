import { describe, expect, it } from 'vitest';
import {
  ANSWER_DEPTH,
  combine,
  DEFAULT_RERANK,
  rerank,
  rerankSignals,
  weightsFor,
} from '../../daemon/retrieve/rerank.ts';
import type { ChunkHit } from '../../daemon/store/chunk-index.ts';

function hit(sourceId: string, text: string, score: number, headings: string[] = []): ChunkHit {
  return { sourceId, generation: 1, chunkIndex: 0, page: 1, text, headings, score };
}

describe('rerank', () => {
  it('puts first the passage with one sentence holding the question, over one with its words scattered', () => {
    const scattered = hit(
      'scattered',
      'The river flooded the town. Many years later a bridge was built. It was opened by the mayor in spring.',
      1,
    );
    const together = hit(
      'together',
      'Tourists like the old town. The bridge over the river was built in 1820.',
      0.9,
    );
    const ranked = rerank('When was the bridge over the river built?', [scattered, together]);

    expect(ranked.map((item) => item.sourceId)).toEqual(['together', 'scattered']);
  });

  it("asks for what a follow-up's own wh-phrase names, not the earlier question's", () => {
    const hits = [hit('answer', 'The usage reports of the Code of Practice are provided monthly.', 1)];
    const context = 'When was the Code of Practice released?';
    const message = 'And how often must its usage reports be provided?';
    expect(rerankSignals(message, hits, context)![0]!.answerKind).toBe(1);
    // Read as one text, its first wh-phrase asks for a date, which the sentence does not hold.
    expect(rerankSignals(`${context} ${message}`, hits)![0]!.answerKind).toBe(0);
    // The earlier question's words count: a passage holding only them is about the topic.
    const topic = [hit('topic', 'The Code of Practice was released in 2003.', 1)];
    expect(rerankSignals(message, topic, context)![0]!.coverage).toBeGreaterThan(0);
    expect(rerankSignals(message, topic)![0]!.coverage).toBe(0);
  });

  it("credits a follow-up's topic to every passage of a source that names it, so its own words decide there", () => {
    const context = 'What is the Music Sound Interpreter?';
    const message = 'How much did it cost?';
    const title = hit('deck', 'Music Sound Interpreter. Nikolaos Eleftheriadis, November 29, 2011.', 1);
    const costs = hit('deck', 'Total Cost of Project: $8,962.', 0.4);
    const elsewhere = hit('sentences', 'The cone costs five cents on Mondays.', 0.5);
    const [ofTitle, ofCosts, ofElsewhere] = rerankSignals(message, [title, costs, elsewhere], context)!;
    expect(ofCosts!.coverage).toBeGreaterThan(ofTitle!.coverage);
    expect(ofCosts!.coverage).toBeGreaterThan(ofElsewhere!.coverage);
    expect(ofCosts!.sentenceCoverage).toBeGreaterThan(ofTitle!.sentenceCoverage);
    const ranked = rerank(message, [title, costs, elsewhere], DEFAULT_RERANK, context);
    expect(ranked[0]!.text).toBe(costs.text);
    // Without the title among the candidates, nothing names the topic: the costs are the deck's no more.
    expect(rerankSignals(message, [costs, elsewhere], context)![0]!.sentenceCoverage).toBeLessThan(
      ofCosts!.sentenceCoverage,
    );
  });

  it('weighs the words that tell candidates apart over the words all of them share', () => {
    const signals = rerankSignals('apollo program funding', [
      hit('a', 'The Apollo program was large.', 1),
      hit('b', 'The Apollo program had funding from Congress.', 0.5),
      hit('c', 'The Apollo program ended in 1972.', 0.5),
    ])!;
    expect(signals[1]!.sentenceCoverage).toBe(1);
    // "apollo" and "program", in every candidate, count for less than half of what "funding" alone does.
    expect(signals[0]!.sentenceCoverage).toBeLessThan(0.6);
  });

  it('counts the heading path over a small fused lead, and keeps scores in [0, 1], best first', () => {
    const ranked = rerank('installation steps', [
      hit('a', 'Run the script and wait.', 1),
      hit('b', 'Run the installer, then restart.', 0.9, ['Guide', 'Installation steps']),
    ]);
    expect(ranked[0]!.sourceId).toBe('b');
    for (const item of ranked) {
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    expect(ranked[0]!.score).toBeGreaterThanOrEqual(ranked[1]!.score);
  });

  it('puts first the passage that says what the question asks in other words', () => {
    const unrelated = hit(
      'unrelated',
      'The engineers who built the dam found the spring weather pleasant and the valley quiet.',
      1,
    );
    const paraphrased = hit(
      'paraphrased',
      'The engineers who built the dam found that its concrete was cracking, a serious concern for the town.',
      0.95,
    );
    const question = 'What problem with the dam did the engineers find?';
    const [first, second] = rerankSignals(question, [unrelated, paraphrased])!;

    // Both hold the same words of the question; "concern" says "problem", and nothing in the other comes as near.
    expect(second!.coverage).toBe(first!.coverage);
    expect(second!.paraphrase).toBeGreaterThan(first!.paraphrase);
    expect(second!.sentenceMeaning).toBeGreaterThan(first!.sentenceMeaning);
    expect(rerank(question, [unrelated, paraphrased]).map((item) => item.sourceId)).toEqual([
      'paraphrased',
      'unrelated',
    ]);
  });

  it('puts first, for a question asking when, the sentence that holds a year', () => {
    const ranked = rerank('When was the bridge over the river opened?', [
      hit('undated', 'The bridge over the river was opened by the mayor.', 1),
      hit('dated', 'The bridge over the river was opened in 1820.', 0.95),
    ]);
    expect(ranked.map((item) => item.sourceId)).toEqual(['dated', 'undated']);
  });

  it('weighs a question and a statement of the same words each with its own weights', () => {
    const signals = rerankSignals('bridge river', [hit('a', 'The bridge over the river.', 1)])!;
    expect(combine(signals[0]!, weightsFor('Which bridge crosses the river?', DEFAULT_RERANK))).not.toBe(
      combine(signals[0]!, weightsFor('The bridge crosses the river.', DEFAULT_RERANK)),
    );
  });

  it("reads a passage's best paragraph, and how often it repeats the query's words", () => {
    const query = 'granite breakwater storm';
    const [together, apart, repeated] = rerankSignals(query, [
      hit('together', 'The granite breakwater survived the storm.\n\nThe town grew.', 1),
      hit('apart', 'The granite was quarried nearby.\n\nThe breakwater survived the storm.', 1),
      hit(
        'repeated',
        'The granite breakwater survived the storm. The storm broke the granite breakwater twice.',
        1,
      ),
    ])!;
    expect(together!.paragraphCoverage).toBeCloseTo(1);
    expect(apart!.paragraphCoverage).toBeLessThan(1);
    expect(apart!.coverage).toBeCloseTo(1);
    expect(repeated!.termFrequency).toBeGreaterThan(together!.termFrequency);
    for (const signals of [together!, apart!, repeated!]) expect(signals.termFrequency).toBeLessThan(1);
  });

  it('leaves hits as they are when the query has no content words', () => {
    const hits = [hit('a', 'text', 0.4), hit('b', 'more text', 0.9)];
    expect(rerank('what is it?', hits, DEFAULT_RERANK)).toBe(hits);
  });

  it('reranks the best 50 fused hits and keeps the rest below them, in fused order', () => {
    const hits = Array.from({ length: 60 }, (_, index) =>
      hit(
        `s${index}`,
        index === 55 ? 'The bridge was built in 1820.' : 'Nothing here about it.',
        1 - index / 100,
      ),
    );
    const ranked = rerank('When was the bridge built?', hits);

    expect(ranked).toHaveLength(60);
    expect(ranked.slice(50).map((item) => item.sourceId)).toEqual(
      hits.slice(50).map((item) => item.sourceId),
    );
    expect(ranked[50]!.score).toBeLessThanOrEqual(ranked[49]!.score);
  });
});

describe("rerank's second look at a question's first passages", () => {
  const question = 'Who designed the tower?';
  const restating = hit(
    'restating',
    'The tower was designed well. The design of the tower was praised by all who saw the tower.',
    1,
  );
  const naming = hit('naming', 'It was designed by Gustave Eiffel, as was the tower.', 0.5);
  const without = { ...DEFAULT_RERANK, answerShare: 0 };
  const decisive = { ...DEFAULT_RERANK, answerShare: 100 };

  it("moves a passage by the sentence model's answer share", () => {
    expect(rerank(question, [restating, naming], without)[0]!.sourceId).toBe('restating');
    const ranked = rerank(question, [restating, naming], decisive);
    expect(ranked.map((item) => item.sourceId)).toEqual(['naming', 'restating']);
    for (const item of ranked) expect(item.score).toBeLessThanOrEqual(1);
  });

  it('leaves a statement to its signals', () => {
    const statement = 'The tower was designed by an engineer.';
    expect(rerank(statement, [restating, naming], decisive)).toEqual(
      rerank(statement, [restating, naming], without),
    );
  });

  it('looks again at the first ANSWER_DEPTH only, and keeps the rest below them in their order', () => {
    const filler = Array.from({ length: ANSWER_DEPTH + 3 }, (_, index) =>
      hit(`f${index}`, `The tower was designed with care, part ${index}.`, 1 - index / 100),
    );
    const ranked = rerank(question, [...filler, naming], decisive);
    const firstLook = rerank(question, [...filler, naming], without);
    const looked = new Set(firstLook.slice(0, ANSWER_DEPTH).map((item) => item.sourceId));
    expect(new Set(ranked.slice(0, ANSWER_DEPTH).map((item) => item.sourceId))).toEqual(looked);
    expect(ranked.slice(ANSWER_DEPTH).map((item) => item.sourceId)).toEqual(
      firstLook.slice(ANSWER_DEPTH).map((item) => item.sourceId),
    );
    expect(ranked[ANSWER_DEPTH]!.score).toBeLessThanOrEqual(ranked[ANSWER_DEPTH - 1]!.score);
    // Scaled, not floored: those below keep scores apart, as the signals scored them.
    const below = ranked.slice(ANSWER_DEPTH).map((item) => item.score);
    expect(new Set(below).size).toBe(below.length);
    expect(below).toEqual(
      firstLook.slice(ANSWER_DEPTH).map((item) => item.score / (1 + decisive.answerShare)),
    );
  });

  it("reads a follow-up's answer shares with the question it follows", () => {
    const bridge = hit('bridge', 'The bridge was finished in 1820.', 1);
    const tower = hit('tower', 'The tower was finished in 1889.', 1);
    const followUp = 'And when was it finished?';
    // Alone the question fits both alike; read with the question before, the model finds one answer.
    const [first, second] = rerank(followUp, [bridge, tower], decisive, 'Who designed the tower?');
    expect(first!.sourceId).toBe('tower');
    expect(first!.score - second!.score).toBeGreaterThan(0.5);
    expect(rerank(followUp, [tower, bridge], decisive, 'Who built the bridge?')[0]!.sourceId).toBe('bridge');
  });
});
