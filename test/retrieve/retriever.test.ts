import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Connection, connect } from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';
import { chunkContextText, chunkDocument } from '../../daemon/ingest/chunk.ts';
import { meanScores } from '../../daemon/retrieve/fusion.ts';
import { createRetriever, followUpContext, fuse, type LiveSources } from '../../daemon/retrieve/index.ts';
import { type ChunkHit, type ChunkIndex, openChunkIndex } from '../../daemon/store/chunk-index.ts';
import { namesOwnTopic, withContext } from '../../daemon/text/follow-up.ts';

const hit = (sourceId: string, chunkIndex: number, score: number): ChunkHit => ({
  sourceId,
  generation: 1,
  chunkIndex,
  page: 1,
  text: `${sourceId} ${chunkIndex}`,
  headings: [],
  score,
});

describe('fuse', () => {
  it('weights normalised scores and keeps them in [0, 1], best first', () => {
    const fused = fuse([hit('a', 0, 12), hit('b', 0, 10)], [hit('b', 0, 0.9), hit('c', 0, 0.3)], {
      method: 'weighted',
      textWeight: 0.7,
    });
    expect(fused.map((item) => item.sourceId)).toEqual(['b', 'a', 'c']);
    expect(fused[0]!.score).toBeCloseTo(0.7 * (10 / 12) + 0.3 * 1);
    expect(fused[1]!.score).toBeCloseTo(0.7);
    expect(fused.every((item) => item.score >= 0 && item.score <= 1)).toBe(true);
  });

  it('ranks by reciprocal rank with rrf, top of both lists scoring 1', () => {
    const fused = fuse([hit('a', 0, 5), hit('b', 0, 4)], [hit('a', 0, 0.9), hit('b', 0, 0.8)], {
      method: 'rrf',
      textWeight: 0.5,
    });
    expect(fused[0]).toMatchObject({ sourceId: 'a', score: 1 });
    expect(fused[1]!.score).toBeLessThan(1);
  });
});

describe('meanScores', () => {
  it('scores each hit by its mean over the searches, the best 1, and shows a replaced source at its newest', () => {
    const found = (sourceId: string, chunkIndex: number, score: number, generation = 1) => ({
      ...hit(sourceId, chunkIndex, score),
      generation,
    });
    const merged = meanScores([
      [found('a', 0, 1), found('b', 0, 0.8), found('old', 0, 0.9, 1)],
      [found('b', 0, 1), found('old', 0, 0.7, 2)],
    ]);
    expect(merged.map((item) => [item.sourceId, item.generation])).toEqual([
      ['b', 1],
      ['a', 1],
      ['old', 2],
    ]);
    expect(merged[0]!.score).toBe(1);
    expect(merged[1]!.score).toBeCloseTo(0.5 / 0.9);
    expect(merged[2]!.score).toBeCloseTo(0.35 / 0.9);
  });
});

describe('createRetriever', () => {
  const embedder = createHashedEmbedder();
  let directory: string;
  let connection: Connection;
  let chunkIndex: ChunkIndex;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'ckb-retrieve-'));
    connection = await connect(directory);
    chunkIndex = await openChunkIndex(connection, embedder, {
      directory,
      busy: () => false,
      onRefreshError: () => {},
    });
    const documents = {
      src_space:
        '# Apollo\n\nThe Apollo program was funded by NASA and landed astronauts on the Moon in 1969.',
      src_copy:
        '# Apollo\n\nThe Apollo program was funded by NASA and landed astronauts on the Moon in 1969.',
      src_food: '# Bread\n\nBread is baked from flour, water and yeast.',
      src_web: 'Glaciers shape valleys.',
      // A topic many passages name, and one passage of what a follow-up asks of it.
      src_code_1: 'The COUNTER Code of Practice sets standards for recording usage reports online.',
      src_code_2:
        'Vendors whose usage reports follow the COUNTER Code of Practice are listed on its register.',
      src_code_3: 'The Code of Practice of COUNTER, with its first usage reports, was released in 2003.',
      src_code_4: "COUNTER's Code of Practice defines usage reports for journals and databases.",
      src_code_5:
        'The Code of Practice and its usage reports are maintained by COUNTER and its advisory board.',
      src_code_6: 'Libraries ask vendors for usage reports under the COUNTER Code of Practice.',
      src_delivery: '# Report delivery\n\nReports must be provided at least monthly, as a CSV or Excel file.',
      src_release: 'Version 7.2.0 of the table reader was released with a faster parser.',
      src_outing:
        'Come out to hear about the table reader: we come out of winter with talks on version 7.2.0.',
      src_palette: 'Uses calming colors such as pink and purple.',
      src_flavour: 'The flavour of the bread comes from its crust.',
    };
    for (const [sourceId, text] of Object.entries(documents)) {
      const url = sourceId === 'src_web' ? 'https://example.com/ice' : undefined;
      const chunks = chunkDocument({ pages: [{ page: 2, text, ...(url ? { url } : {}) }] });
      const vectors = await embedder.embed(chunks.map((chunk) => chunk.text));
      await chunkIndex.add(
        chunks.map((chunk) => ({
          ...chunk,
          sourceId,
          applicationId: 'app',
          accountId: 'acct',
          generation: 1,
          searchText: chunkContextText(chunk),
        })),
        vectors,
      );
    }
    // A replaced version of the Apollo source, whose chunks are not live: searches never see it.
    const stale = chunkDocument({ pages: [{ page: 9, text: 'The Apollo program was funded by bakers.' }] });
    await chunkIndex.add(
      stale.map((chunk) => ({
        ...chunk,
        sourceId: 'src_space',
        applicationId: 'app',
        accountId: 'acct',
        generation: 0,
        searchText: chunkContextText(chunk),
      })),
      await embedder.embed(stale.map((chunk) => chunk.text)),
    );
  });

  /** The application's sources searches may show, each at generation 1, named after their ids. */
  function live(...ids: string[]): LiveSources {
    return async (asked) =>
      new Map(
        asked.filter((id) => ids.includes(id)).map((id) => [id, { name: `name of ${id}`, generation: 1 }]),
      );
  }

  afterAll(async () => {
    await chunkIndex.close();
    connection.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('returns the relevant passage first with exact page, a score in [0, 1], and duplicates collapsed', async () => {
    const retriever = createRetriever({ chunkIndex, embedder });
    const passages = await retriever.search({
      query: 'who funded the moon landing?',
      applicationId: 'app',
      liveSources: live('src_space', 'src_copy', 'src_food'),
      limit: 3,
    });
    expect(passages[0]).toMatchObject({ page: 2 });
    expect(passages.some((passage) => passage.text.includes('bakers'))).toBe(false);
    expect(passages[0]!.text).toContain('NASA');
    expect(passages.filter((passage) => passage.text.includes('NASA'))).toHaveLength(1);
    for (const passage of passages) {
      expect(passage.score).toBeGreaterThanOrEqual(0);
      expect(passage.score).toBeLessThanOrEqual(1);
    }
    expect(passages.map((passage) => passage.score)).toEqual(
      [...passages.map((passage) => passage.score)].sort((a, b) => b - a),
    );
  });

  it('shows only live sources, by name, and keeps urls', async () => {
    const retriever = createRetriever({ chunkIndex, embedder });
    const passages = await retriever.search({
      query: 'glaciers',
      applicationId: 'app',
      liveSources: live('src_web', 'src_food'),
      limit: 5,
    });
    expect(passages[0]).toMatchObject({
      sourceId: 'src_web',
      sourceName: 'name of src_web',
      url: 'https://example.com/ice',
    });
    expect(passages.every((passage) => passage.sourceId !== 'src_space')).toBe(true);
    const none = { query: 'glaciers', applicationId: 'app', liveSources: live(), limit: 5 };
    expect(await retriever.search(none)).toEqual([]);
    expect(await retriever.search({ ...none, applicationId: 'other', liveSources: live('src_web') })).toEqual(
      [],
    );
  });

  it('searches a follow-up that names its own topic on its own too, so the earlier question cannot crowd it out', async () => {
    const retriever = createRetriever({ chunkIndex, embedder });
    const sources = ['1', '2', '3', '4', '5', '6'].map((n) => `src_code_${n}`);
    const passages = await retriever.search({
      query: 'And how often must the usage reports be provided?',
      context: "What is COUNTER's Code of Practice?",
      applicationId: 'app',
      liveSources: live(...sources, 'src_delivery'),
      limit: 3,
    });
    expect(passages.map((passage) => passage.sourceId)).toContain('src_delivery');
    // Searched joined only, the earlier question's words crowd it out.
    const joined = await retriever.search({
      query: withContext(
        'And how often must the usage reports be provided?',
        "What is COUNTER's Code of Practice?",
      ),
      applicationId: 'app',
      liveSources: live(...sources, 'src_delivery'),
      limit: 3,
    });
    expect(joined.map((passage) => passage.sourceId)).not.toContain('src_delivery');
  });

  it('searches a phrasal verb as the word documents use: what "came out" is "released"', async () => {
    const retriever = createRetriever({ chunkIndex, embedder });
    const passages = await retriever.search({
      query: 'Did version 7.2.0 of the table reader come out?',
      applicationId: 'app',
      liveSources: live('src_release', 'src_outing'),
      limit: 2,
    });
    expect(passages.map((passage) => passage.sourceId)).toEqual(['src_release', 'src_outing']);
  });

  it('finds a passage in the other spelling of a word, British or American, by its words alone', async () => {
    const byWords = createRetriever(
      { chunkIndex, embedder },
      { fusion: { method: 'weighted', textWeight: 1 } },
    );
    const search = (query: string) =>
      byWords.search({
        query,
        applicationId: 'app',
        liveSources: live('src_palette', 'src_flavour', 'src_food'),
        limit: 1,
      });
    expect((await search('colours')).map((passage) => passage.sourceId)).toEqual(['src_palette']);
    expect((await search('flavor')).map((passage) => passage.sourceId)).toEqual(['src_flavour']);
  });

  it('still finds a passage by meaning when no word matches exactly', async () => {
    const retriever = createRetriever({ chunkIndex, embedder });
    const passages = await retriever.search({
      query: 'bakery',
      applicationId: 'app',
      liveSources: live('src_food', 'src_web'),
      limit: 1,
    });
    expect(passages[0]?.sourceId).toBe('src_food');
  });

  it('stops when aborted', async () => {
    const retriever = createRetriever({ chunkIndex, embedder });
    const search = retriever.search({
      query: 'apollo',
      applicationId: 'app',
      liveSources: live('src_space'),
      limit: 1,
      signal: AbortSignal.abort(),
    });
    await expect(search).rejects.toThrow();
  });
});

describe('followUpContext', () => {
  const history = [
    { role: 'user' as const, content: 'When did the Apollo program land on the Moon?' },
    { role: 'assistant' as const, content: 'In 1969.' },
  ];

  it('gives a follow-up the question it refers to', () => {
    expect(followUpContext(history, 'and who funded it?')).toBe(
      'When did the Apollo program land on the Moon?',
    );
  });

  it('follows a chain of follow-ups back to the topic', () => {
    const longer = [
      ...history,
      { role: 'user' as const, content: 'who funded it?' },
      { role: 'assistant' as const, content: 'NASA.' },
    ];
    expect(followUpContext(longer, 'why?')).toBe(
      'When did the Apollo program land on the Moon? who funded it?',
    );
  });

  it('gives the topic of a request for an overview, without its framing', () => {
    const overview = [
      { role: 'user' as const, content: 'Tell me about the Music Sound Interpreter' },
      { role: 'assistant' as const, content: 'It is a lap pad.' },
    ];
    expect(followUpContext(overview, 'How much did it cost?')).toBe('the Music Sound Interpreter');
  });

  it('tells a follow-up that names its own topic from one that points back', () => {
    expect(namesOwnTopic('And how often must the usage reports be provided?')).toBe(true);
    expect(namesOwnTopic('and who funded it?')).toBe(false);
    expect(namesOwnTopic('why?')).toBe(false);
  });

  it('leaves a self-contained question alone', () => {
    expect(followUpContext(history, 'What is the boiling point of liquid oxygen?')).toBeUndefined();
    expect(followUpContext([], 'and who funded it?')).toBeUndefined();
  });
});
