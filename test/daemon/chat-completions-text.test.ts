import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  CkbError,
  invalidRequest,
  notFound,
  toOpenAiErrorResponse,
  unauthorized,
} from '../../daemon/errors.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';
import { sourcesFooter, withoutSourcesFooter } from '../../daemon/services/chat-completions.ts';

function passage(number: number, sourceName: string, page = 1, url?: string): ContextPassage {
  return {
    number,
    sourceName,
    sourceId: `src_${number}`,
    page,
    text: 'text',
    score: 1 / number,
    ...(url ? { url } : {}),
  };
}

describe('the sources list after a completion', () => {
  const passages = [
    passage(1, 'Handbook', 3),
    passage(2, 'Site', 2, 'https://example.com/a'),
    passage(3, 'Notes'),
  ];

  test('the cited passages, by the numbers the reply uses, once each, in order', () => {
    expect(sourcesFooter(passages, [3, 1, 3])).toBe(
      '\n\nSources:\n- [1] Handbook, page 3\n- [3] Notes, page 1',
    );
    expect(sourcesFooter(passages, [2])).toBe('\n\nSources:\n- [2] Site, page 2 (https://example.com/a)');
    expect(sourcesFooter(passages, [])).toBe('');
    expect(sourcesFooter(passages, [9])).toBe('');
  });

  test('a name with line breaks stays on one line', () => {
    expect(sourcesFooter([passage(1, 'two\nlines')], [1])).toBe('\n\nSources:\n- [1] two lines, page 1');
  });

  test('taken off an earlier reply sent back as history, and only that', () => {
    const reply = 'The lighthouse was built in 1810 [1].';
    expect(withoutSourcesFooter(reply + sourcesFooter(passages, [1, 2]))).toBe(reply);
    expect(withoutSourcesFooter(reply)).toBe(reply);
    const quoting = 'Lists look like this:\n\nSources:\n- [1] a, page 1\n\nand go on.';
    expect(withoutSourcesFooter(quoting)).toBe(quoting);
  });

  test('property: any reply, any names, the list comes off exactly', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 6 }),
        (reply, names) => {
          const numbered = names.map((name, index) => passage(index + 1, name, index + 1));
          const footer = sourcesFooter(
            numbered,
            numbered.map((item) => item.number),
          );
          expect(withoutSourcesFooter(reply + footer)).toBe(reply);
        },
      ),
    );
  });
});

describe("OpenAI's error shape", () => {
  test("the contract's status, OpenAI's type, and OpenAI's code where it has one", () => {
    expect(toOpenAiErrorResponse(unauthorized('unknown or revoked API key'))).toMatchObject({
      status: 401,
      body: {
        error: {
          message: 'unknown or revoked API key',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    });
    const model = new CkbError('not_found', 'model x does not exist', { param: 'model' });
    expect(toOpenAiErrorResponse(model).body.error).toMatchObject({
      code: 'model_not_found',
      param: 'model',
    });
    expect(toOpenAiErrorResponse(notFound('application', 'x')).body.error.code).toBe('not_found');
    expect(toOpenAiErrorResponse(invalidRequest('bad', 'messages')).body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'invalid_request',
      param: 'messages',
    });
    expect(toOpenAiErrorResponse(new CkbError('rate_limited', 'slow down'))).toMatchObject({
      status: 429,
      body: { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
    });
    expect(toOpenAiErrorResponse(new CkbError('upstream_error', 'vendor down')).body.error.type).toBe(
      'server_error',
    );
  });

  test("a bug's message stays hidden, as in the contract's shape", () => {
    const response = toOpenAiErrorResponse(new Error('secret stack detail'));
    expect(response.status).toBe(500);
    expect(response.internal).toBe(true);
    expect(response.body.error).toEqual({
      message: 'internal error; the daemon log has the details',
      type: 'server_error',
      param: null,
      code: 'internal_error',
    });
  });
});
