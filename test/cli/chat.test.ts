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
