import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { newHome } from '../support/home.ts';
import { readStorage, storageProblems } from '../support/storage.ts';

/**
 * A data directory written by the code before the SQL store (commit 85cd2ce), and killed with SIGKILL a moment
 * after its last writes, so its journal holds entries LanceDB's tables do not: test/fixtures/legacy-home/README.md.
 */
const fixture = resolve(import.meta.dirname, '../fixtures/legacy-home');

describe('a data directory of the earlier layout', () => {
  let home: string;
  let daemon: TestDaemon;
  let expected: Record<string, string>;

  beforeAll(async () => {
    home = await newHome();
    await cp(join(fixture, 'data'), join(home, 'data'), { recursive: true });
    const own = JSON.parse(await readFile(join(home, 'config.json'), 'utf8').catch(() => '{}'));
    const old = JSON.parse(await readFile(join(fixture, 'config.json'), 'utf8'));
    await writeFile(join(home, 'config.json'), JSON.stringify({ ...own, api_key: old.api_key }));
    expected = JSON.parse(await readFile(join(fixture, 'expected.json'), 'utf8'));
    daemon = await startTestDaemon({ home });
    daemon.apiKey = old.api_key;
  });

  afterAll(async () => {
    await daemon.close();
    await rm(home, { recursive: true, force: true });
  });

  it('is imported at the first start, journal included, and the old tables moved aside', async () => {
    const handbook = await daemon.call('GET', `/applications/${expected['handbook']}`);
    // The rename was in the journal only when the daemon died.
    expect(handbook.body).toMatchObject({
      name: 'Staff handbook',
      description: 'staff rules',
      model: 'lm-4',
      system_message: 'Be brief.',
    });
    const data = await readdir(join(home, 'data'));
    expect(data).not.toContain('journal');
    const retired = data.find((name) => name.startsWith('legacy-'));
    expect(retired).toBeDefined();
    expect((await readdir(join(home, 'data', retired!))).sort()).toEqual(
      [
        'accounts.lance',
        'applications.lance',
        'conversations.lance',
        'files.lance',
        'journal',
        'keys.lance',
        'messages.lance',
        'sources.lance',
      ].sort(),
    );
    expect((await readdir(join(home, 'data', 'db'))).filter((name) => !name.startsWith('chunks_'))).toEqual(
      [],
    );
  });

  it('keeps every source with its status, and its chunks searchable without embedding them again', async () => {
    const sources = (await daemon.call('GET', `/applications/${expected['handbook']}/sources`)).body;
    const byId = new Map(sources.map((source: any) => [source.id, source]));
    expect(byId.get(expected['vacation'])).toMatchObject({ embed_status: 'COMPLETED', chunks: 1 });
    expect(byId.get(expected['travel'])).toMatchObject({ embed_status: 'COMPLETED', type: 'file' });
    expect(byId.get(expected['empty'])).toMatchObject({ embed_status: 'FAILED' });
    // COMPLETED in the journal only.
    expect(byId.get(expected['late'])).toMatchObject({ embed_status: 'COMPLETED', name: 'parking' });
    const hits = (
      await daemon.call('POST', `/applications/${expected['handbook']}/search`, { query: 'parking permits' })
    ).body;
    expect(hits[0]).toMatchObject({ source_id: expected['late'], source: 'parking' });
    expect((await daemon.call('GET', `/sources/${expected['vacation']}/chunks`)).body[0].text).toContain(
      'twenty-five days',
    );
    // The page that never answered was PROCESSING when the daemon died: it runs again, and fails for good now.
    const slow = sources.find((source: any) => source.name === 'slow page');
    expect((await waitForSource(daemon, slow.id)).embed_status).toBe('FAILED');
  });

  it('keeps conversations whole, with their token totals, and continues them', async () => {
    const conversation = (await daemon.call('GET', `/conversations/${expected['conversation']}`)).body;
    expect(conversation.messages.map((message: any) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    const replies = conversation.messages.filter((message: any) => message.role === 'assistant');
    expect(conversation.prompt_tokens).toBe(
      replies.reduce((sum: number, m: any) => sum + m.prompt_tokens, 0),
    );
    expect(conversation.total_tokens).toBe(conversation.prompt_tokens + conversation.completion_tokens);
    const next = await daemon.call('POST', '/conversations', {
      conversation_id: expected['conversation'],
      message: 'Where does travel get booked?',
    });
    expect(next.status).toBe(200);
    expect(next.body.message).toContain('Leeds');
  });

  it('keeps accounts and keys: a revoked key stays revoked, an account sees only its own', async () => {
    expect((await daemon.call('GET', '/applications', undefined, expected['revoked_key'])).status).toBe(401);
    const team = (await daemon.call('GET', '/applications', undefined, expected['team_key'])).body;
    expect(team.map((application: any) => application.id)).toEqual([expected['team_application']]);
    const own = (await daemon.call('GET', '/applications')).body.map((application: any) => application.id);
    expect(own).toEqual([expected['handbook']]);
    const files = (await daemon.call('GET', '/files')).body.map((file: any) => file.name);
    expect(files.sort()).toEqual(['blank.md', 'travel.txt']);
  });

  it('drops the application deleted before, chunks included, and imports nothing again at the next start', async () => {
    expect((await daemon.call('GET', `/applications/${expected['doomed']}`)).status).toBe(404);
    await daemon.restart();
    expect((await daemon.call('GET', '/applications')).body).toHaveLength(1);
    await daemon.daemon.close();
    const storage = await readStorage(home);
    expect(storageProblems(storage)).toEqual([]);
    const sources = new Set(storage.records.get('sources')!.map((source) => source.id));
    expect([...storage.chunksBySource.keys()].every((id) => sources.has(id))).toBe(true);
    await daemon.restart();
  });
});
