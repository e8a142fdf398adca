import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addTextSource, startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';

let daemon: TestDaemon;
let appId: string;

beforeAll(async () => {
  daemon = await startTestDaemon();
  appId = (await daemon.call('POST', '/applications', { name: 'updates' })).body.id;
});
afterAll(async () => {
  await daemon.close();
});

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

const addText = (name: string, content: string) => addTextSource(daemon, appId, name, content);

async function chunkTexts(id: string): Promise<string> {
  return (await daemon.call('GET', `/sources/${id}/chunks`)).body.map((chunk: any) => chunk.text).join('\n');
}

async function searchTexts(query: string): Promise<string[]> {
  const { body } = await daemon.call('POST', `/applications/${appId}/search`, { query, limit: 10 });
  return body.map((hit: any) => hit.text);
}

describe('PUT /sources/{id}', () => {
  test('new text replaces the old in place: same id, new chunks, the old ones gone from search', async () => {
    const source = await addText('tides', 'Spring tides happen at new and full moon.');
    expect(source.content_hash).toBe(sha256('Spring tides happen at new and full moon.'));
    const { status, body } = await daemon.call('PUT', `/sources/${source.id}`, {
      content: 'Neap tides happen at the quarter moons, when sun and moon pull at right angles.',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: source.id, name: 'tides', embed_status: 'PENDING' });
    expect(body.content).toContain('Neap tides');
    const after = await waitForSource(daemon, source.id);
    expect(after).toMatchObject({ id: source.id, embed_status: 'COMPLETED', embed_status_message: '' });
    expect(after.content_hash).toBe(
      sha256('Neap tides happen at the quarter moons, when sun and moon pull at right angles.'),
    );
    expect(await chunkTexts(source.id)).toContain('Neap tides');
    const hits = await searchTexts('tides moon');
    expect(hits.some((text) => text.includes('Neap tides'))).toBe(true);
    expect(hits.some((text) => text.includes('Spring tides'))).toBe(false);
    const listed = (await daemon.call('GET', `/applications/${appId}/sources`)).body;
    expect(listed.filter((item: any) => item.name === 'tides')).toHaveLength(1);
  });

  test('the same text again changes nothing and queues nothing; a new name alone is renamed at once', async () => {
    const source = await addText('stars', 'Polaris sits almost exactly above the north pole.');
    const same = await daemon.call('PUT', `/sources/${source.id}`, {
      content: 'Polaris sits almost exactly above the north pole.',
    });
    expect(same.body).toMatchObject({ embed_status: 'COMPLETED', chunks: source.chunks });
    const renamed = await daemon.call('PUT', `/sources/${source.id}`, { name: 'pole star' });
    expect(renamed.body).toMatchObject({ name: 'pole star', embed_status: 'COMPLETED' });
    const { body } = await daemon.call('POST', `/applications/${appId}/search`, {
      query: 'Polaris north pole',
    });
    expect(body[0]).toMatchObject({ source: 'pole star', source_id: source.id });
  });

  test('a new file replaces a file source; a new upload of the same bytes queues nothing', async () => {
    const first = await daemon.upload('notes.md', '# Notes\n\nThe kettle whistles when the water boils.');
    const { body: created } = await daemon.call('POST', '/sources', {
      application_id: appId,
      type: 'file',
      name: 'notes.md',
      content: first,
    });
    const source = await waitForSource(daemon, created.id);
    expect(source.content_hash).toBe(sha256('# Notes\n\nThe kettle whistles when the water boils.'));

    const again = await daemon.upload('notes.md', '# Notes\n\nThe kettle whistles when the water boils.');
    const unchanged = await daemon.call('PUT', `/sources/${source.id}`, { content: again });
    expect(unchanged.body).toMatchObject({ embed_status: 'COMPLETED', content: again });
    // The first upload is no longer used: it can be deleted.
    expect((await daemon.call('DELETE', `/files/${first}`)).status).toBe(200);

    const edited = await daemon.upload('notes.md', '# Notes\n\nThe kettle sings before the water boils.');
    const replaced = await daemon.call('PUT', `/sources/${source.id}`, { content: edited });
    expect(replaced.body.embed_status).toBe('PENDING');
    const after = await waitForSource(daemon, source.id);
    expect(after.embed_status).toBe('COMPLETED');
    expect(await chunkTexts(source.id)).toContain('kettle sings');
  });

  test('a replacement that fails leaves the previous version searchable, and says so', async () => {
    const good = await daemon.upload('manual.md', '# Manual\n\nTurn the dial clockwise to open the valve.');
    const { body: created } = await daemon.call('POST', '/sources', {
      application_id: appId,
      type: 'file',
      name: 'manual',
      content: good,
    });
    await waitForSource(daemon, created.id);
    const broken = await daemon.upload('manual.pdf', '%PDF-1.7\nthis is not really a pdf');
    await daemon.call('PUT', `/sources/${created.id}`, { content: broken });
    const failed = await waitForSource(daemon, created.id);
    expect(failed.embed_status).toBe('FAILED');
    expect(failed.embed_status_message).toMatch(/previous version is still in use$/);
    expect(failed.chunks).toBe(1);
    expect(await chunkTexts(created.id)).toContain('Turn the dial clockwise');
    expect((await searchTexts('dial valve clockwise')).some((text) => text.includes('Turn the dial'))).toBe(
      true,
    );
    // The same content again tries a FAILED source once more.
    const retried = await daemon.call('PUT', `/sources/${created.id}`, { content: broken });
    expect(retried.body.embed_status).toBe('PENDING');
    expect((await waitForSource(daemon, created.id)).embed_status).toBe('FAILED');
  });

  test.each([
    [{}, undefined, /at least one of name, content and sync_interval/],
    [{ type: 'url', content: 'https://example.com/' }, 'type', /type cannot change/],
    [{ content: ['a', 'b'] }, 'content', /content/],
    [{ content: '   ' }, 'content', /must not be empty/],
    [{ sync_interval: 3600 }, 'sync_interval', /only url, urls and website sources/],
    [{ name: '' }, 'name', /name must not be empty/],
  ])('%j is refused with 400 and changes nothing', async (update, param, message) => {
    const source = await addText('fixed', 'Quartz is a hard mineral.');
    const { status, body } = await daemon.call('PUT', `/sources/${source.id}`, update);
    expect(status).toBe(400);
    expect(body.error.type).toBe('invalid_request');
    expect(body.error.param).toBe(param);
    expect(body.error.message).toMatch(message);
    const after = (await daemon.call('GET', `/sources/${source.id}`)).body;
    expect(after).toEqual(source);
  });

  test('an unknown source, a file id that is not the caller’s, or another account’s source is 404', async () => {
    expect((await daemon.call('PUT', '/sources/src_nope', { name: 'x' })).status).toBe(404);
    const source = await addText('mine', 'Basalt is volcanic.');
    const file = await daemon.upload('x.md', 'x');
    const { body } = await daemon.call('POST', '/sources', {
      application_id: appId,
      type: 'file',
      name: 'x.md',
      content: file,
    });
    const wrongFile = await daemon.call('PUT', `/sources/${body.id}`, {
      content: 'file_01JD0000000000000000000000',
    });
    expect(wrongFile.status).toBe(404);
    expect(wrongFile.body.error.param).toBe('content');
    const { body: other } = await daemon.call('POST', '/admin/keys', { account: 'other' });
    const foreign = await daemon.call('PUT', `/sources/${source.id}`, { name: 'stolen' }, other.key);
    expect(foreign.status).toBe(404);
    expect((await daemon.call('GET', `/sources/${source.id}`)).body.name).toBe('mine');
  });

  test('sync of a text or file source is 400, saying to PUT new content', async () => {
    const source = await addText('plain', 'Granite is coarse-grained.');
    const { status, body } = await daemon.call('POST', `/sources/${source.id}/sync`);
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/PUT \/sources\/\{id\} with the new text/);
    expect((await daemon.call('POST', '/sources/src_nope/sync')).status).toBe(404);
  });
});
