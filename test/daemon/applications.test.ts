import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let daemon: TestDaemon;
beforeAll(async () => {
  daemon = await startTestDaemon();
});
afterAll(() => daemon.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('applications', () => {
  test('create applies the contract defaults and answers 201', async () => {
    const { status, body } = await daemon.call('POST', '/applications', { name: 'Handbook' });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^app_[0-9A-Z]{26}$/),
      name: 'Handbook',
      description: '',
      model: 'lm-3.5-turbo',
      system_message: '',
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
  });

  test('the dotted model spelling is accepted and stored hyphenated', async () => {
    const { status, body } = await daemon.call('POST', '/applications', {
      name: 'dotted',
      model: 'lm-3.5.turbo',
    });
    expect(status).toBe(201);
    expect(body.model).toBe('lm-3.5-turbo');
  });

  test.each([
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 5 }, 'name'],
    [{ name: 'a', model: 'gpt-4' }, 'model'],
    [{ name: 'a', description: 7 }, 'description'],
    [{ name: 'a', system_message: 'x'.repeat(20_001) }, 'system_message'],
  ])('invalid body %j → 400 naming %s, and nothing is created', async (body, param) => {
    const before = (await daemon.call('GET', '/applications')).body.length;
    const response = await daemon.call('POST', '/applications', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request', param });
    expect(response.body.error.message).toMatch(/\S/);
    expect((await daemon.call('GET', '/applications')).body).toHaveLength(before);
  });

  test('a bad model names the allowed values', async () => {
    const { body } = await daemon.call('POST', '/applications', { name: 'a', model: 'lm-5' });
    expect(body.error.message).toContain('lm-3.5-turbo, lm-4');
  });

  test('malformed JSON is a 400, and a non-JSON body is refused', async () => {
    const malformed = await daemon.call('POST', '/applications', '{"name":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.type).toBe('invalid_request');
    const response = await fetch(`${daemon.url}/applications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${daemon.apiKey}`, 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(response.status).toBe(400);
  });

  test('a body over the limit is a 413', async () => {
    const response = await daemon.call('POST', '/applications', {
      name: 'big',
      description: 'x'.repeat(9 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(response.body.error.type).toBe('payload_too_large');
  });

  test('get, update and list newest first with paging', async () => {
    const created = [];
    for (const name of ['one', 'two', 'three'])
      created.push((await daemon.call('POST', '/applications', { name })).body);
    const [one, two, three] = created;
    expect((await daemon.call('GET', `/applications/${two.id}`)).body).toEqual(two);

    const updated = await daemon.call('PUT', `/applications/${two.id}`, {
      description: 'second',
      model: 'lm-4',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: two.id, name: 'two', description: 'second', model: 'lm-4' });
    expect(updated.body.updated_at >= two.updated_at).toBe(true);

    const list = (await daemon.call('GET', '/applications')).body.map((app: { id: string }) => app.id);
    expect(list.slice(0, 3)).toEqual([three.id, two.id, one.id]);
    const page = (await daemon.call('GET', `/applications?limit=1&after=${three.id}`)).body;
    expect(page.map((app: { id: string }) => app.id)).toEqual([two.id]);
    expect((await daemon.call('GET', '/applications?limit=0')).status).toBe(400);
    expect((await daemon.call('GET', '/applications?limit=1001')).status).toBe(400);
  });

  test('limit takes plain decimal digits only', async () => {
    for (const limit of ['1e3', '0x10', '1.0', '+5', '%205', '05', '1_0', '', 'Infinity']) {
      const answer = await daemon.call('GET', `/applications?limit=${limit}`);
      expect(answer.status, limit).toBe(400);
      expect(answer.body.error).toMatchObject({ type: 'invalid_request', param: 'limit' });
    }
    for (const [limit, length] of [
      ['1', 1],
      ['1000', undefined],
    ] as const) {
      const answer = await daemon.call('GET', `/applications?limit=${limit}`);
      expect(answer.status).toBe(200);
      if (length !== undefined) expect(answer.body).toHaveLength(length);
    }
  });

  test('an invalid update changes nothing', async () => {
    const { body: app } = await daemon.call('POST', '/applications', { name: 'stable' });
    const response = await daemon.call('PUT', `/applications/${app.id}`, { name: 'renamed', model: 'nope' });
    expect(response.status).toBe(400);
    expect((await daemon.call('GET', `/applications/${app.id}`)).body).toEqual(app);
  });

  test('sources and conversations of a new application are empty lists', async () => {
    const { body: app } = await daemon.call('POST', '/applications', { name: 'empty' });
    expect((await daemon.call('GET', `/applications/${app.id}/sources`)).body).toEqual([]);
    expect((await daemon.call('GET', `/applications/${app.id}/conversations`)).body).toEqual([]);
  });

  test('delete answers {id, deleted} and the application is gone', async () => {
    const { body: app } = await daemon.call('POST', '/applications', { name: 'doomed' });
    const response = await daemon.call('DELETE', `/applications/${app.id}`);
    expect(response).toMatchObject({ status: 200, body: { id: app.id, deleted: true } });
    for (const [method, path] of [
      ['GET', `/applications/${app.id}`],
      ['PUT', `/applications/${app.id}`],
      ['DELETE', `/applications/${app.id}`],
      ['GET', `/applications/${app.id}/sources`],
      ['GET', `/applications/${app.id}/conversations`],
    ] as const) {
      const gone = await daemon.call(method, path, method === 'PUT' ? { name: 'x' } : undefined);
      expect(gone.status, `${method} ${path}`).toBe(404);
      expect(gone.body.error.type).toBe('not_found');
    }
  });

  test('unknown paths are 404 and known paths with another method are 405 with Allow', async () => {
    const unknown = await daemon.call('GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.type).toBe('not_found');
    const wrongMethod = await daemon.call('PATCH', '/applications');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.type).toBe('method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST');
  });
});
