import { describe, expect, it } from 'vitest';
import { createResponder } from '../../daemon/respond/index.ts';
import { composeReply, notFoundReply, offlineTitle, toDeltas } from '../../daemon/respond/offline.ts';
import { countTokens } from '../../daemon/respond/tokens.ts';
import type { ContextPassage, ReplyEvent, ReplyRequest } from '../../daemon/respond/types.ts';

const passages: ContextPassage[] = [
  {
    number: 1,
    sourceName: 'super-bowl.pdf',
    sourceId: 'src_1',
    page: 3,
    text:
      '# Super Bowl 50\n\nSuper Bowl 50 was an American football game to determine the champion of the National Football League for the 2015 season. ' +
      'The game was played on February 7, 2016, at Levi’s Stadium in Santa Clara, California. ' +
      'The Denver Broncos defeated the Carolina Panthers 24–10 to earn their third Super Bowl title.',
    score: 0.92,
  },
  {
    number: 2,
    sourceName: 'oxygen.md',
    sourceId: 'src_2',
    page: 1,
    text: 'Oxygen is a chemical element with symbol O and atomic number 8. It is a highly reactive nonmetal.',
    score: 0.31,
  },
];

function ask(question: string, given: ContextPassage[] = passages): ReplyRequest {
  return { model: 'lm-3.5-turbo', systemMessage: '', question, history: [], passages: given };
}

async function collect(events: AsyncGenerator<ReplyEvent>) {
  const deltas: string[] = [];
  let finish: Extract<ReplyEvent, { type: 'finish' }> | undefined;
  for await (const event of events) {
    if (event.type === 'text-delta') deltas.push(event.delta);
    else finish = event;
  }
  return { deltas, text: deltas.join(''), finish };
}

// With no provider configured and no key, both names are served offline.
const responder = createResponder({}, {});

describe('offline responder', () => {
  it('answers from the passage that holds the answer: short answer first, then the cited sentence', async () => {
    const { text, finish } = await collect(
      responder.reply(ask('When was the game played?'), { signal: new AbortController().signal }),
    );

    expect(text.startsWith('February 7, 2016.')).toBe(true);
    expect(text).toContain('The game was played on February 7, 2016');
    expect(text).toContain('[1] (source: super-bowl.pdf, p. 3)');
    expect(text).not.toContain('Oxygen');
    expect(finish?.usedPassages).toEqual([1]);
  });

  it('picks out people and numbers for who and how-many questions', () => {
    expect(
      composeReply('Who defeated the Carolina Panthers?', passages).text.startsWith('Denver Broncos.'),
    ).toBe(true);
    expect(composeReply('What is the atomic number of oxygen?', passages).text).toContain(
      'atomic number 8. [2] (source: oxygen.md, p. 1)',
    );
  });

  it('says it could not find an answer the passages do not hold', async () => {
    const { text, finish } = await collect(
      responder.reply(ask('Which bird migrates the farthest each year?'), {
        signal: new AbortController().signal,
      }),
    );

    expect(text).toBe(notFoundReply);
    expect(finish?.usedPassages).toEqual([]);
    expect(composeReply('What is the capital of France?', []).text).toBe(notFoundReply);
  });

  it('streams several small deltas that join into the reply, and counts usage with o200k', async () => {
    const request = ask('Who defeated the Carolina Panthers?');
    const { deltas, text, finish } = await collect(
      responder.reply(request, { signal: new AbortController().signal }),
    );

    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.every((delta) => delta.trim().split(/\s+/).length <= 3)).toBe(true);
    expect(text).toBe(composeReply(request.question, passages).text);
    expect(finish?.usage.completion_tokens).toBe(countTokens(text));
    expect(finish?.usage.prompt_tokens).toBeGreaterThan(countTokens(passages[0]?.text ?? ''));
    expect(finish?.usage.total_tokens).toBe(
      (finish?.usage.prompt_tokens ?? 0) + (finish?.usage.completion_tokens ?? 0),
    );
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const events = responder.reply(ask('Who defeated the Carolina Panthers?'), { signal: controller.signal });
    await events.next();
    controller.abort();

    await expect(events.next()).rejects.toThrow();
  });

  it('splits text into deltas that concatenate back exactly', () => {
    const text = 'One two  three\n\nfour five six seven. [1] (source: a.pdf, p. 2)';
    expect(toDeltas(text).join('')).toBe(text);
  });
});

describe('offline titles', () => {
  it('makes a short capitalised title from the key words of the first question', async () => {
    expect(
      await responder.title(
        { model: 'lm-4', message: 'What is the capital of France?', passages },
        { signal: new AbortController().signal },
      ),
    ).toBe('Capital of France');
    expect(offlineTitle('Which NFL team represented the AFC at Super Bowl 50?')).toBe(
      'NFL Team Represented AFC Super Bowl 50',
    );
    expect(
      offlineTitle(
        'summarise the quarterly revenue report for the board and highlight the main risks please',
      ),
    ).toBe('Quarterly Revenue Report Board Highlight Main Risks Please');
    expect(offlineTitle('  ?? ')).toBe('New conversation');
  });

  it('never exceeds 8 words', () => {
    const title = offlineTitle(
      'Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau',
    );
    expect(title.split(' ').length).toBeLessThanOrEqual(8);
  });
});
