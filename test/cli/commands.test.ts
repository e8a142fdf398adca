import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon, waitForSource } from '../support/daemon.ts';
import { type CliResult, cliEnvironment, freePort, runCli } from './run.ts';

let daemon: TestDaemon;
let scratch: string;

function ckb(...args: string[]): Promise<CliResult> {
  return runCli(args, { env: cliEnvironment(daemon.home, daemon.url) });
}

function json(result: CliResult): any {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  daemon = await startTestDaemon();
  scratch = await mkdtemp(join(tmpdir(), 'ckb-cli-'));
});

afterAll(async () => {
  await daemon?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('applications', () => {
  it('create prints the id alone; --json prints what the API returns', async () => {
    const created = await ckb('app', 'create', '--name', 'Garden', '--description', 'plants');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^app_[0-9A-Z]+\n$/);
    const id = created.stdout.trim();

    const shown = json(await ckb('--json', 'app', 'get', id));
    expect(shown).toEqual((await daemon.call('GET', `/applications/${id}`)).body);
    expect(shown).toMatchObject({ name: 'Garden', description: 'plants', model: 'lm-3.5-turbo' });

    const listed = json(await ckb('app', 'list', '--json'));
    expect(listed).toEqual((await daemon.call('GET', '/applications')).body);

    const updated = json(await ckb('app', 'update', id, '--name', 'Allotment', '--model', 'lm-4', '--json'));
    expect(updated).toMatchObject({ id, name: 'Allotment', model: 'lm-4' });

    const human = await ckb('app', 'list');
    expect(human.stdout).toMatch(/^ID\s+NAME\s+MODEL\s+CREATED\n/);
    expect(human.stdout).toContain(`${id}  Allotment`);

    expect(json(await ckb('--json', 'app', 'rm', id))).toEqual({ id, deleted: true });
    const gone = await ckb('app', 'get', id);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toMatch(/^ckb: .*not found/);
  });

  it('create --json prints the whole object', async () => {
    const created = json(await ckb('app', 'create', '--name', 'Whole', '--json'));
    expect(created).toEqual((await daemon.call('GET', `/applications/${created.id}`)).body);
  });
});

describe('exit codes', () => {
  it('2 for usage errors, commander ones included', async () => {
    const missing = await ckb('app', 'create');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option '--name <name>'/);
    expect((await ckb('app', 'list', '--bogus')).code).toBe(2);
    expect((await ckb('nonsense')).code).toBe(2);
    const none = await ckb('source', 'add', '--app', 'app_x');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/exactly one of --text, --file/);
    expect((await ckb('ask', 'hello')).code).toBe(2);
  });

  it('1 when the API answers with an error, its message on stderr', async () => {
    const result = await runCli(['app', 'list'], {
      env: cliEnvironment(daemon.home, daemon.url, { CKB_API_KEY: 'ckb_wrong' }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^ckb: /);
    const invalid = await ckb('app', 'create', '--name', 'x', '--model', 'gpt-9');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/model must be one of lm-3\.5-turbo, lm-4/);
  });

  it('3 when the daemon is unreachable and autostart is off', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await runCli(['app', 'list'], { env: cliEnvironment(scratch, url) });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`cannot reach the ckb daemon at ${url}`);
    expect(result.stderr).toContain('CKB_NO_AUTOSTART=1');
  });

  it('0 for --help and --version', async () => {
    const help = await ckb('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: ckb');
    expect((await ckb('--version')).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

describe('sources, files and search', () => {
  let app: string;

  beforeAll(async () => {
    app = (await daemon.call('POST', '/applications', { name: 'Docs' })).body.id;
  });

  it('source add --file --wait uploads a local file and waits until COMPLETED', async () => {
    const path = join(scratch, 'garden.md');
    await writeFile(
      path,
      '# Gardening\n\nTomatoes need six hours of sun a day.\n\n## Pests\n\nAphids: spray with soapy water.\n',
    );
    const added = await ckb('source', 'add', '--app', app, '--file', path, '--wait');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^src_[0-9A-Z]+\n$/);
    expect(added.stderr).toMatch(/garden\.md: completed, 1 page, \d+ chunks?/);
    const id = added.stdout.trim();

    const source = json(await ckb('--json', 'source', 'get', id));
    expect(source).toMatchObject({ id, name: 'garden.md', type: 'file', embed_status: 'COMPLETED' });
    expect(json(await ckb('--json', 'source', 'chunks', id))).toEqual(
      (await daemon.call('GET', `/sources/${id}/chunks`)).body,
    );
    const files = json(await ckb('--json', 'file', 'list'));
    expect(files.map((file: { name: string }) => file.name)).toContain('garden.md');

    const results = json(
      await ckb('--json', 'search', '--app', app, '--limit', '2', 'how much sun for tomatoes'),
    );
    expect(results).toEqual(
      (
        await daemon.call('POST', `/applications/${app}/search`, {
          query: 'how much sun for tomatoes',
          limit: 2,
        })
      ).body,
    );
    expect(results[0]).toMatchObject({ source: 'garden.md', source_id: id });
  });

  it('source add --text names the source from its text and lists it', async () => {
    const added = await ckb(
      'source',
      'add',
      '--app',
      app,
      '--text',
      'Roses like   clay soil and morning sun.',
    );
    expect(added.stdout).toMatch(/^src_[0-9A-Z]+\n$/);
    const listed = json(await ckb('--json', 'source', 'list', '--app', app));
    expect(listed.find((source: { id: string }) => source.id === added.stdout.trim())).toMatchObject({
      name: 'Roses like clay soil and morning sun.',
      type: 'text',
    });
    expect(json(await ckb('--json', 'app', 'sources', app))).toEqual(
      (await daemon.call('GET', `/applications/${app}/sources`)).body,
    );
  });

  it('source add --wait exits 1 with the reason when ingestion fails', async () => {
    const path = join(scratch, 'broken.pdf');
    await writeFile(path, 'this is not a PDF');
    const added = await ckb('source', 'add', '--app', app, '--file', path, '--wait');
    expect(added.code).toBe(1);
    expect(added.stderr).toMatch(/ckb: source src_\w+ failed: .+/);
  });

  it('file upload prints the file id; unsupported extensions are refused', async () => {
    const path = join(scratch, 'notes.txt');
    await writeFile(path, 'plain notes');
    const uploaded = await ckb('file', 'upload', path);
    expect(uploaded.stdout).toMatch(/^file_[0-9A-Z]+\n$/);
    const refused = join(scratch, 'image.png');
    await writeFile(refused, 'png');
    const result = await ckb('file', 'upload', refused);
    expect(result.code).toBe(1);
  });

  it('app clear-sources deletes them all', async () => {
    const other = (await daemon.call('POST', '/applications', { name: 'Cleared' })).body.id;
    for (const text of ['one', 'two']) {
      await daemon.call('POST', '/sources', {
        application_id: other,
        type: 'text',
        name: text,
        content: text,
      });
    }
    expect(json(await ckb('--json', 'app', 'clear-sources', other))).toEqual({
      application_id: other,
      deleted: 2,
    });
  });
});

describe('conversations', () => {
  let app: string;

  beforeAll(async () => {
    app = (await daemon.call('POST', '/applications', { name: 'Chat' })).body.id;
    const source = await daemon.call('POST', '/sources', {
      application_id: app,
      type: 'text',
      name: 'Basil grows best',
      content: 'Basil grows best with six hours of warm sun.',
    });
    await waitForSource(daemon, source.body.id);
  });

  it('ask streams the reply into a pipe, then its sources', async () => {
    const asked = await ckb('ask', '--app', app, 'How much sun does basil need?');
    expect(asked.code).toBe(0);
    const conversationId = /continue with --conversation (conv_\w+)/.exec(asked.stderr)?.[1] ?? '';
    const conversation = (await daemon.call('GET', `/conversations/${conversationId}`)).body;
    const answer = conversation.messages.find((message: { role: string }) => message.role === 'assistant');
    expect(asked.stdout.startsWith(answer.content)).toBe(true);
    expect(asked.stdout).toMatch(/Sources:\n {2}\[1\] Basil grows best.*, page 1 \(score \d\.\d\d\)/);

    const followUp = await ckb('ask', '--conversation', conversationId, '--no-stream', 'And water?');
    expect(followUp.code).toBe(0);
    expect((await daemon.call('GET', `/conversations/${conversationId}`)).body.messages).toHaveLength(4);
  });

  it('ask --json prints the reply object only', async () => {
    const reply = json(await ckb('--json', 'ask', '--app', app, 'basil sun'));
    expect(Object.keys(reply).sort()).toEqual(['conversation_id', 'message', 'sources', 'title', 'usage']);
    expect(reply.sources[0]).toMatchObject({ page: 1 });

    const listed = json(await ckb('--json', 'conv', 'list', '--app', app));
    expect(listed.map((conversation: { id: string }) => conversation.id)).toContain(reply.conversation_id);
    expect(json(await ckb('--json', 'conv', 'list'))).toEqual(
      (await daemon.call('GET', '/conversations')).body,
    );

    const renamed = json(await ckb('--json', 'conv', 'rename', reply.conversation_id, 'Basil', 'care'));
    expect(renamed.title).toBe('Basil care');
    const shown = await ckb('conv', 'get', reply.conversation_id);
    expect(shown.stdout).toMatch(/^Basil care\n/);
    expect(shown.stdout).toContain('You:\nbasil sun');
    expect(json(await ckb('--json', 'conv', 'rm', reply.conversation_id))).toEqual({
      id: reply.conversation_id,
      deleted: true,
    });
  });
});

describe('keys', () => {
  it('create prints the secret, which then works; revoke stops it', async () => {
    const created = await ckb('keys', 'create', '--account', 'bob');
    expect(created.stdout).toMatch(/^ckb_\S+\n$/);
    const key = created.stdout.trim();
    const asBob = cliEnvironment(daemon.home, daemon.url, { CKB_API_KEY: key });
    expect((await runCli(['--json', 'app', 'list'], { env: asBob })).stdout.trim()).toBe('[]');
    expect((await runCli(['keys', 'list'], { env: asBob })).code).toBe(1);

    const keys = json(await ckb('--json', 'keys', 'list'));
    const bob = keys.find((entry: { account: string }) => entry.account === 'bob');
    expect(bob).toMatchObject({ admin: false, revoked_at: null });
    expect(json(await ckb('--json', 'keys', 'revoke', bob.id))).toEqual({ id: bob.id, deleted: true });
    expect((await runCli(['app', 'list'], { env: asBob })).code).toBe(1);
  });
});
