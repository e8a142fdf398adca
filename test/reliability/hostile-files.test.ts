import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type DaemonProcess, spawnDaemon } from '../support/daemon-process.ts';
import { newHome } from '../support/home.ts';
import {
  deeplyNestedJson,
  docxBomb,
  docxEntityExpansion,
  giantHtml,
  hugePdf,
  loopingPdf,
  pptxBomb,
} from './hostile-documents.ts';
import { expectContractError, sleep } from './support.ts';

const MEMORY_LIMIT_BYTES = 1.5 * 1024 * 1024 * 1024;
let home: string;
let daemon: DaemonProcess;
let application: string;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${daemon.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${daemon.apiKey}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : text, headers: response.headers };
}

async function upload(name: string, bytes: Uint8Array | string): Promise<string> {
  const presigned = await call('GET', `/files/presigned-url?${new URLSearchParams({ name })}`);
  expect(presigned.status, name).toBe(200);
  const response = await fetch(presigned.body.presigned_url, { method: 'PUT', body: bytes });
  expect(response.status, name).toBe(200);
  return presigned.body.file_id;
}

async function rss(): Promise<number> {
  const status = await readFile(`/proc/${daemon.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

beforeAll(async () => {
  home = await newHome();
  await mkdir(home, { recursive: true });
  await writeFile(join(home, 'config.json'), JSON.stringify({ limits: { extract_timeout_ms: 5_000 } }));
  daemon = await spawnDaemon(home);
  application = (await call('POST', '/applications', { name: 'hostile' })).body.id;
});

afterAll(async () => {
  await daemon.kill('SIGTERM');
  await rm(home, { recursive: true, force: true });
});

describe('hostile file names', () => {
  test('traversal and control characters never choose where bytes go, and names come back clean', async () => {
    const names = [
      '../../../../tmp/escaped.txt',
      '..\\..\\..\\windows\\escaped.txt',
      '/etc/passwd.txt',
      'a\u0000b\u0007c\u001b[31m.txt',
      'line\nbreak\r.md',
      '\u202etxt.exe.txt',
      `${'x'.repeat(300)}.txt`,
      '%2e%2e%2fencoded.txt',
      '.txt',
    ];
    for (const name of names) {
      const presigned = await call('GET', `/files/presigned-url?${new URLSearchParams({ name })}`);
      if (presigned.status !== 200) {
        expectContractError(presigned, name);
        continue;
      }
      const response = await fetch(presigned.body.presigned_url, { method: 'PUT', body: 'harmless text' });
      if (response.status !== 200) {
        expectContractError(
          { status: response.status, body: await response.json(), headers: response.headers },
          name,
        );
      }
    }
    const { body: files } = await call('GET', '/files');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not come back
      expect(file.name).not.toMatch(/[/\\\u0000-\u001f\u007f]/);
      expect(file.name.length).toBeLessThanOrEqual(255);
    }
    const stored = await readdir(join(home, 'data', 'files'));
    for (const entry of stored) expect(entry).toMatch(/^file_[0-9A-Z]{26}\.[a-z]+$/);
    await expect(readFile('/tmp/escaped.txt', 'utf8')).rejects.toThrow();
    const homeEntries = (await readdir(home, { recursive: true })).filter((entry) =>
      entry.includes('escaped'),
    );
    expect(homeEntries).toEqual([]);
  });
});

describe('hostile documents', () => {
  test('bombs, loops, deep nesting and bad encodings end FAILED or bounded; memory stays bounded; other work goes on', async () => {
    const hostile: [string, Uint8Array | string][] = [
      ['bomb.docx', await docxBomb(150 * 1024 * 1024)],
      ['bomb.pptx', await pptxBomb(150 * 1024 * 1024)],
      ['laughs.docx', await docxEntityExpansion()],
      ['loop.pdf', loopingPdf()],
      ['huge.pdf', await hugePdf(100 * 1024 * 1024)],
      ['nested.json', deeplyNestedJson(200_000)],
      ['giant.html', giantHtml(100_000)],
      ['garbage.txt', Buffer.from(Array.from({ length: 100_000 }, (_, index) => (index * 7919) % 256))],
      ['truncated.docx', (await docxEntityExpansion()).subarray(0, 500)],
    ];
    const sources = new Map<string, string>();
    for (const [name, bytes] of hostile) {
      const file = await upload(name, bytes);
      const created = await call('POST', '/sources', {
        application_id: application,
        type: 'file',
        name,
        content: file,
      });
      expect(created.status, name).toBe(201);
      sources.set(created.body.id, name);
    }
    const memory: number[] = [];
    const health: number[] = [];
    const normal = await call('POST', '/sources', {
      application_id: application,
      type: 'text',
      name: 'ordinary',
      content: 'Ordinary work goes on while hostile files are refused.',
    });
    let normalDone: number | undefined;
    const started = performance.now();
    const deadline = Date.now() + 120_000;
    let states: any[] = [];
    for (;;) {
      memory.push(await rss());
      const ping = performance.now();
      expect((await call('GET', '/health')).status).toBe(200);
      health.push(performance.now() - ping);
      states = (await call('GET', `/applications/${application}/sources`)).body;
      const ordinary = states.find((source) => source.id === normal.body.id);
      if (normalDone === undefined && ordinary?.embed_status === 'COMPLETED')
        normalDone = performance.now() - started;
      if (states.every((source) => source.embed_status === 'COMPLETED' || source.embed_status === 'FAILED'))
        break;
      expect(Date.now(), JSON.stringify(states.map((s) => [s.name, s.embed_status]))).toBeLessThan(deadline);
      await sleep(250);
    }
    const outcome = states
      .filter((source) => sources.has(source.id))
      .map((source) => ({
        name: source.name,
        status: source.embed_status,
        message: source.embed_status_message,
        characters: source.characters,
      }));
    for (const source of outcome) {
      if (source.status === 'FAILED') {
        expect(source.message.length, source.name).toBeGreaterThan(10);
        expect(source.message, source.name).not.toMatch(/\n\s+at /);
      } else {
        // A parser that refuses to expand entities or reads a giant page is fine, as long as the text stays small.
        expect(['laughs.docx', 'giant.html', 'garbage.txt', 'loop.pdf']).toContain(source.name);
        expect(source.characters, source.name).toBeLessThan(20_000_000);
      }
    }
    for (const name of ['bomb.docx', 'bomb.pptx', 'nested.json', 'truncated.docx'])
      expect(outcome.find((source) => source.name === name)?.status, name).toBe('FAILED');
    expect(normalDone, 'the ordinary source completed while the hostile ones ran').toBeDefined();
    expect(Math.max(...memory)).toBeLessThan(MEMORY_LIMIT_BYTES);
    expect(Math.max(...health)).toBeLessThan(2_000);
  }, 150_000);
});
