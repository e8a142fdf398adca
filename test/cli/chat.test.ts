import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';
import { cliEntry, cliEnvironment, runCli } from './run.ts';

const driver = resolve(import.meta.dirname, 'drive-pty.py');

let daemon: TestDaemon;
let vendor: FakeOpenAI;
let app: string;
let slowApp: string;

type Step = ['expect' | 'send', string];

/** Runs the built CLI in a pseudo-terminal, as a person at a keyboard would. */
function inTerminal(args: string[], steps: Step[]): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('python3', [driver, JSON.stringify(steps), process.execPath, cliEntry, ...args], {
      env: { ...cliEnvironment(daemon.home, daemon.url), TERM: 'xterm', COLUMNS: '100', LINES: '40' },
    });
    let screen = '';
    child.stdout.on('data', (chunk) => {
      screen += chunk;
    });
    child.stderr.on('data', (chunk) => {
      screen += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, screen }));
  });
}

beforeAll(async () => {
  vendor = await startFakeOpenAI();
  const options = {
    // lm-4 goes to the fake vendor (so a reply can be slow); lm-3.5-turbo stays offline.
    config: {
      models: { 'lm-4': { base_url: vendor.baseUrl, model: 'fake', api_key_env: 'FAKE_VENDOR_KEY' } },
    },
    env: { FAKE_VENDOR_KEY: 'sk-test' },
  };
  daemon = await startTestDaemon(options);
  const env = cliEnvironment(daemon.home, daemon.url);
  app = (await runCli(['app', 'create', '--name', 'Herbs'], { env })).stdout.trim();
  slowApp = (await runCli(['app', 'create', '--name', 'Slow', '--model', 'lm-4'], { env })).stdout.trim();
  await runCli(
    [
      'source',
      'add',
      '--app',
      app,
      '--name',
      'herbs.md',
      '--wait',
      '--text',
      'Basil needs six hours of sun.',
    ],
    {
      env,
    },
  );
});

afterAll(async () => {
  await daemon?.close();
  await vendor?.close();
});

describe('ckb chat in a terminal', () => {
  it('answers a question with its sources, lists sources, and leaves on /exit', async () => {
    const { code, screen } = await inTerminal(
      ['chat', '--app', app],
      [
        ['expect', 'You:'],
        ['send', 'How much sun does basil need?\r'],
        ['expect', 'Sources:'],
        ['expect', 'You:'],
        ['send', '/sources\r'],
        ['expect', 'COMPLETED'],
        ['expect', 'You:'],
        ['send', '/exit\r'],
      ],
    );
    expect(screen).toContain('Chatting with Herbs');
    expect(screen).toMatch(/six hours/i);
    expect(screen).toMatch(/\[1\] herbs\.md, page 1/);
    expect(code).toBe(0);
    const conversations = (await daemon.call('GET', `/applications/${app}/conversations`)).body;
    expect(conversations).toHaveLength(1);
    const conversation = (await daemon.call('GET', `/conversations/${conversations[0].id}`)).body;
    expect(conversation.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
    ]);
  });

  it('resumes a conversation with --conversation alone, showing its earlier messages first', async () => {
    const asked = await runCli(['--json', 'ask', '--app', app, 'How much sun does basil need?'], {
      env: cliEnvironment(daemon.home, daemon.url),
    });
    const { conversation_id: conversation, message } = JSON.parse(asked.stdout);
    const { code, screen } = await inTerminal(
      ['chat', '--conversation', conversation],
      [
        ['expect', 'You:'],
        ['send', '/exit\r'],
      ],
    );
    expect(code).toBe(0);
    expect(screen).toContain('Chatting with Herbs');
    const history = screen.indexOf('How much sun does basil need?');
    expect(history).toBeGreaterThan(-1);
    expect(screen.indexOf(message.split('\n')[0].slice(0, 30), history)).toBeGreaterThan(history);
  });

  it('app rm asks first, and deletes nothing when told no; --yes does not ask', async () => {
    const env = cliEnvironment(daemon.home, daemon.url);
    const doomed = (await runCli(['app', 'create', '--name', 'Doomed'], { env })).stdout.trim();
    const declined = await inTerminal(
      ['app', 'rm', doomed],
      [
        ['expect', 'Delete the application "Doomed"'],
        ['expect', '0 conversations?'],
        ['send', 'n\r'],
        ['expect', 'nothing was deleted'],
      ],
    );
    expect(declined.code).toBe(0);
    // The pty is 80 columns wide, so the question wraps.
    expect(declined.screen.replaceAll('\r\n', '')).toContain('with its 0 sources and 0 conversations?');
    expect((await daemon.call('GET', `/applications/${doomed}`)).status).toBe(200);
    const cleared = await inTerminal(
      ['app', 'clear-sources', app],
      [
        ['expect', 'Delete all 1 source of "Herbs"'],
        ['send', 'n\r'],
        ['expect', 'nothing was deleted'],
      ],
    );
    expect(cleared.code).toBe(0);
    expect((await daemon.call('GET', `/applications/${app}/sources`)).body).toHaveLength(1);
    const agreed = await inTerminal(
      ['app', 'rm', doomed],
      [
        ['expect', '?'],
        ['send', 'y\r'],
        ['expect', `Deleted ${doomed}`],
      ],
    );
    expect(agreed.code).toBe(0);
    const unasked = (await runCli(['app', 'create', '--name', 'Unasked'], { env })).stdout.trim();
    const yes = await inTerminal(['app', 'rm', unasked, '--yes'], [['expect', `Deleted ${unasked}`]]);
    expect(yes.screen).not.toContain('?');
    expect((await daemon.call('GET', `/applications/${unasked}`)).status).toBe(404);
  });

  it('leaves on Ctrl-D', async () => {
    const { code } = await inTerminal(
      ['chat', '--app', app],
      [
        ['expect', 'You:'],
        ['send', '\u0004'],
      ],
    );
    expect(code).toBe(0);
  });

  it('Ctrl-C during a reply cancels that reply, aborts the request and keeps the chat open', async () => {
    vendor.script(() => ({
      content: 'Slowly one two three four five six.',
      chunks: ['Slowly ', 'one ', 'two ', 'three ', 'four ', 'five ', 'six.'],
    }));
    vendor.enqueue(
      { type: 'slow', chunkDelayMs: 400 },
      { type: 'slow', chunkDelayMs: 400 },
      { type: 'slow', chunkDelayMs: 400 },
    );
    const { code, screen } = await inTerminal(
      ['chat', '--app', slowApp],
      [
        ['expect', 'You:'],
        ['send', 'Count slowly\r'],
        ['expect', 'Slowly'],
        ['send', '\u0003'],
        ['expect', '(reply cancelled)'],
        ['expect', 'You:'],
        ['send', '/exit\r'],
      ],
    );
    expect(screen).not.toContain('six.');
    expect(code).toBe(0);
    const chats = vendor
      .chatRequests()
      .filter((request) => JSON.stringify(request.body).includes('Count slowly'));
    expect(chats.some((request) => request.aborted)).toBe(true);
    expect((await daemon.call('GET', `/applications/${slowApp}/conversations`)).body).toEqual([]);
  });
});

describe('ckb chat without a terminal', () => {
  it('reads questions line by line and writes only the replies and their sources to stdout', async () => {
    const result = await runCli(['chat', '--app', app], {
      env: cliEnvironment(daemon.home, daemon.url),
      input: 'How much sun does basil need?\n\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('You:');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no cursor movement or colour may reach a pipe
    expect(result.stdout).not.toMatch(/\u001b/);
    expect(result.stdout).toMatch(/six hours/i);
    expect(result.stdout).toMatch(/\[1\] herbs\.md, page 1/);
  });

  it('/exit ends the chat though its input stays open', async () => {
    const child = spawn(process.execPath, [cliEntry, 'chat', '--app', app], {
      env: cliEnvironment(daemon.home, daemon.url),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.write('/exit\n');
    const code = await new Promise((resolvePromise) => child.on('close', resolvePromise));
    child.stdin.destroy();
    expect(code).toBe(0);
  });

  it('ends at the end of its input, and continues a conversation given alone', async () => {
    const env = cliEnvironment(daemon.home, daemon.url);
    const first = await runCli(['--json', 'ask', '--app', app, 'basil sun'], { env });
    const { conversation_id: conversation } = JSON.parse(first.stdout);
    const result = await runCli(['chat', '--conversation', conversation], { env, input: 'And water?\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('You:\nbasil sun');
    const { body } = await daemon.call('GET', `/conversations/${conversation}`);
    expect(body.messages.map((message: { content: string }) => message.content)).toContain('And water?');
    const listed = await runCli(['conv', 'list', '--app', app], { env });
    expect(listed.stdout).toMatch(new RegExp(`${conversation}.*\\s4\\s`));
  });

  it('refuses an application that is not the conversation’s, and needs one of the two', async () => {
    const env = cliEnvironment(daemon.home, daemon.url);
    const first = await runCli(['--json', 'ask', '--app', app, 'basil'], { env });
    const { conversation_id: conversation } = JSON.parse(first.stdout);
    const mismatch = await runCli(['chat', '--app', slowApp, '--conversation', conversation], {
      env,
      input: '',
    });
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(/^ckb: conversation conv_\w+ belongs to application/);
    expect((await runCli(['chat'], { env, input: '' })).code).toBe(2);
  });
});
