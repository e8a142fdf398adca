import { describe, expect, it } from 'vitest';
import { replySources } from '../../daemon/respond/citations.ts';
import { buildPrompt, buildTitlePrompt, citedPassages, tidyTitle } from '../../daemon/respond/prompt.ts';
import type { ContextPassage, HistoryMessage, ReplyRequest } from '../../daemon/respond/types.ts';

const passages: ContextPassage[] = [
  {
    number: 1,
    sourceName: 'report.pdf',
    sourceId: 'src_1',
    page: 3,
    text: 'Revenue grew 12% in 2024.',
    score: 0.5,
  },
  {
    number: 2,
    sourceName: 'Pricing page',
    sourceId: 'src_2',
    page: 2,
    text: 'Plans start at 9 euros.',
    url: 'https://example.com/pricing',
    score: 0.8,
  },
];

function turn(index: number): HistoryMessage[] {
  return [
    { role: 'user', content: `question ${index} ${'words '.repeat(40)}` },
    { role: 'assistant', content: `answer ${index} ${'words '.repeat(40)}` },
  ];
}

function request(history: HistoryMessage[]): ReplyRequest {
  return {
    model: 'lm-4',
    systemMessage: 'Speak like a pirate.',
    question: 'What did revenue do?',
    history,
    passages,
  };
}

describe('buildPrompt', () => {
  it('puts the system message, then numbered passages with sources and pages, then the question', () => {
    const { messages } = buildPrompt(request([]), { contextTokens: 8192, replyTokens: 1024 });

    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content.startsWith('Speak like a pirate.')).toBe(true);
    expect(messages[0]?.content).toContain('[1]');
    // Numbered as the reply's sources will be: best score first.
    expect(messages[1]?.content).toContain(
      '[1] (source: Pricing page, page 2, https://example.com/pricing)\nPlans start at 9 euros.',
    );
    expect(messages[1]?.content).toContain('[2] (source: report.pdf, page 3)\nRevenue grew 12% in 2024.');
    expect(messages[1]!.content.indexOf('[1]')).toBeLessThan(messages[1]!.content.indexOf('[2]'));
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'What did revenue do?' });
  });

  it('gives passages of one source page one number', () => {
    const samePage: ContextPassage = {
      ...passages[1]!,
      number: 3,
      text: 'Discounts apply yearly.',
      score: 0.7,
    };
    const { messages } = buildPrompt(
      { ...request([]), passages: [...passages, samePage] },
      { contextTokens: 8192, replyTokens: 1024 },
    );

    expect(messages[1]?.content.match(/\[\d\]/g)).toEqual(['[1]', '[1]', '[2]']);
  });

  it('keeps the whole history when it fits', () => {
    const history = [...turn(1), ...turn(2)];
    const prompt = buildPrompt(request(history), { contextTokens: 8192, replyTokens: 1024 });

    expect(prompt.droppedHistory).toBe(0);
    expect(prompt.messages.slice(2, -1)).toEqual(history);
  });

  it('drops the oldest turns first when the budget is short, keeping passages and question', () => {
    const history = [...turn(1), ...turn(2), ...turn(3)];
    const full = buildPrompt(request(history), { contextTokens: 100_000, replyTokens: 0 });
    const budget = full.promptTokens - 50;
    const prompt = buildPrompt(request(history), { contextTokens: budget + 100, replyTokens: 100 });

    expect(prompt.promptTokens).toBeLessThanOrEqual(budget);
    expect(prompt.droppedHistory).toBe(2);
    expect(prompt.messages.slice(2, -1)).toEqual([...turn(2), ...turn(3)]);
    expect(prompt.messages[1]?.content).toContain('Revenue grew 12% in 2024.');
    expect(prompt.messages.at(-1)?.content).toBe('What did revenue do?');
  });

  it('never starts the kept history with an orphaned assistant reply', () => {
    const history = [...turn(1), ...turn(2)];
    const full = buildPrompt(request(history), { contextTokens: 100_000, replyTokens: 0 });
    // Room for the last three messages: the user question of turn 1 is gone, so its answer goes too.
    const withoutFirst = buildPrompt(request(history.slice(1)), { contextTokens: 100_000, replyTokens: 0 });
    const prompt = buildPrompt(request(history), {
      contextTokens: withoutFirst.promptTokens,
      replyTokens: 0,
    });

    expect(full.droppedHistory).toBe(0);
    expect(prompt.droppedHistory).toBe(2);
    expect(prompt.messages[2]).toEqual(turn(2)[0]);
  });

  it('still sends passages and question when nothing else fits', () => {
    const prompt = buildPrompt(request(turn(1)), { contextTokens: 10, replyTokens: 5 });

    expect(prompt.droppedHistory).toBe(2);
    expect(prompt.messages).toHaveLength(3);
  });
});

describe('citedPassages', () => {
  it('lists the sources up to the highest number cited, reading [n], [n, m] and [n][m] and ignoring unknown numbers', () => {
    // Source 1 is the Pricing page (passage 2, the better score), source 2 the report (passage 1).
    expect(citedPassages('Plans start at 9 euros [1]. See [7].', passages)).toEqual([2]);
    expect(citedPassages('Revenue grew [2].', passages)).toEqual([1, 2]);
    expect(citedPassages('Both [1, 2].', passages)).toEqual([1, 2]);
    expect(citedPassages('Both [1][2].', passages)).toEqual([1, 2]);
  });

  it('falls back to every passage when the reply cites none', () => {
    expect(citedPassages('No citations here.', passages)).toEqual([1, 2]);
  });

  it('makes every [n] of the reply name the n-th of its sources', () => {
    const reply = 'Revenue grew [2], and plans start at 9 euros [1].';
    const sources = replySources(passages, citedPassages(reply, passages));

    expect(sources.map((source) => source.source)).toEqual(['Pricing page', 'report.pdf']);
  });
});

describe('titles', () => {
  it('asks for a short title with the sources as context', () => {
    const messages = buildTitlePrompt('What did revenue do?', passages);

    expect(messages[0]?.content).toContain('at most 8 words');
    expect(messages[1]?.content).toContain('report.pdf, Pricing page');
  });

  it('tidies a model title to one line of at most 8 words without quotes or final stop', () => {
    expect(tidyTitle('"Revenue growth in 2024."')).toBe('Revenue growth in 2024');
    expect(tidyTitle('Title: One two three four five six seven eight nine\nextra')).toBe(
      'One two three four five six seven eight',
    );
  });
});
