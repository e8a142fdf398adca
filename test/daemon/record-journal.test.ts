import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { connect } from '@lancedb/lancedb';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RecordTable, type StoredRecord } from '../../daemon/store/record-table.ts';

interface Note extends StoredRecord {
  text: string;
  status?: string;
}

const RECORD_TABLE = resolve(import.meta.dirname, '../../daemon/store/record-table.ts');

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'ckb-journal-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const dbDir = () => join(home, 'db');
const journalDir = () => join(home, 'journal');

async function openNotes(): Promise<RecordTable<Note>> {
  const connection = await connect(dbDir());
  return RecordTable.open<Note>(connection, 'notes', () => '', journalDir());
}

/** The rows LanceDB itself holds, read past the table's cache. */
async function storedRows(): Promise<Note[]> {
  const connection = await connect(dbDir());
  const table = await connection.openTable('notes');
  const rows = await table.query().select(['body']).toArray();
  table.close();
  return rows.map((row) => JSON.parse(String(row.body)) as Note).sort((a, b) => a.id.localeCompare(b.id));
}

async function segments(): Promise<string[]> {
  return (await readdir(journalDir())).sort();
}

const note = (id: number, text = `note ${id}`): Note => ({ id: `n${id}`, account_id: 'a', text });

describe('record table journal', () => {
  test('every acknowledged write survives SIGKILL before it reached LanceDB', async () => {
    // A writer process acknowledges its writes, then is killed before its first checkpoint (1 s later).
    const script = `
      import { connect } from '@lancedb/lancedb';
      import { RecordTable } from ${JSON.stringify(RECORD_TABLE)};
      const table = await RecordTable.open(await connect(${JSON.stringify(dbDir())}), 'notes', () => '', ${JSON.stringify(journalDir())});
      const note = (id, text = 'note ' + id) => ({ id: 'n' + id, account_id: 'a', text });
      await Promise.all(Array.from({ length: 200 }, (_, id) => table.put(note(id))));
      await Promise.all(Array.from({ length: 20 }, (_, id) => table.put(note(id, 'changed'))));
      await Promise.all(Array.from({ length: 10 }, (_, id) => table.patch(['n' + (20 + id)], { status: 'done' })));
      await table.delete(Array.from({ length: 10 }, (_, id) => 'n' + (190 + id)));
      console.log('acknowledged');
      setInterval(() => {}, 1000);
    `;
    const writer = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(createInterface({ input: writer.stdout! }), 'line');
    writer.kill('SIGKILL');
    await once(writer, 'exit');

    const table = await openNotes();
    const expected = Array.from({ length: 190 }, (_, id) => {
      const written = note(id, id < 20 ? 'changed' : undefined);
      return id >= 20 && id < 30 ? { ...written, status: 'done' } : written;
    }).sort((a, b) => a.id.localeCompare(b.id));
    expect(table.values().sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected);
    // Opening stored the replayed writes in LanceDB and removed the old segment.
    expect(await storedRows()).toEqual(expected);
    expect(await segments()).toHaveLength(1);
    await table.close();
    expect(await segments()).toEqual([]);
  }, 30_000);

  test('a checkpoint moves journaled writes into LanceDB within about a second', async () => {
    const table = await openNotes();
    await table.put(note(1), note(2));
    await table.delete(['n2']);
    expect(await storedRows()).toEqual([]);
    await new Promise((done) => setTimeout(done, 1_600));
    expect(await storedRows()).toEqual([note(1)]);
    const [current] = await segments();
    expect(await segments()).toHaveLength(1);
    expect((await stat(join(journalDir(), current!))).size).toBe(0);
    await table.close();
  });

  test('a checkpoint that starts while a slow one is still storing loses nothing', async () => {
    const table = await openNotes();
    // LanceDB slower than the checkpoint interval, as under heavy ingestion.
    const lance = (table as unknown as { table: { add(rows: unknown): Promise<unknown> } }).table;
    const add = lance.add.bind(lance);
    lance.add = async (rows) => {
      await new Promise((done) => setTimeout(done, 1_500));
      return add(rows);
    };
    await table.put(note(1));
    await new Promise((done) => setTimeout(done, 1_200));
    await table.put(note(2));
    await new Promise((done) => setTimeout(done, 5_000));
    expect(await storedRows()).toEqual([note(1), note(2)]);
    expect(await segments()).toHaveLength(1);
    await table.close();
  }, 15_000);

  test('replaying writes that were already stored does not duplicate rows', async () => {
    const table = await openNotes();
    await table.put(note(1), note(2));
    await table.close();
    expect(await storedRows()).toEqual([note(1), note(2)]);
    // What a crash between storing a segment and deleting it leaves.
    await writeFile(
      join(journalDir(), 'notes.00000001.log'),
      `${JSON.stringify({ put: [note(1), note(2)] })}\n${JSON.stringify({ put: [note(2, 'later')] })}\n`,
    );
    const reopened = await openNotes();
    expect(await storedRows()).toEqual([note(1), note(2, 'later')]);
    expect(reopened.get('n2')?.text).toBe('later');
    await reopened.close();
  });

  test('a patch journals only the fields it changes, and replays over the record it patches', async () => {
    const table = await openNotes();
    const long = 'word '.repeat(2_000);
    await table.put(note(1, long));
    await table.patch(['n1'], { status: 'done' });
    expect(table.get('n1')).toEqual({ ...note(1, long), status: 'done' });
    const [segment] = await segments();
    const lines = (await readFile(join(journalDir(), segment!), 'utf8')).trim().split('\n');
    expect(lines.at(-1)).toBe(JSON.stringify({ patch: [{ id: 'n1', changes: { status: 'done' } }] }));
    await table.close();
    expect(await storedRows()).toEqual([{ ...note(1, long), status: 'done' }]);

    // What a crash leaves: a patch after the put it changes, and one for a record never written.
    await writeFile(
      join(journalDir(), 'notes.00000002.log'),
      `${[
        { put: [note(2)] },
        { patch: [{ id: 'n2', changes: { status: 'done' } }] },
        { patch: [{ id: 'n9', changes: { status: 'done' } }] },
        { patch: [{ id: 'n1', changes: { text: 'short' } }] },
      ]
        .map((entry) => JSON.stringify(entry))
        .join('\n')}\n`,
    );
    const reopened = await openNotes();
    const expected = [
      { ...note(1, 'short'), status: 'done' },
      { ...note(2), status: 'done' },
    ];
    expect(reopened.values().sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected);
    expect(await storedRows()).toEqual(expected);
    await reopened.close();
  });

  test('a patch that lands after its record was deleted leaves it deleted', async () => {
    const table = await openNotes();
    await table.put(note(1), note(2));
    await new Promise((done) => setTimeout(done, 1_600));
    const deleted = table.delete(['n1']);
    const patched = table.patch(['n1'], { status: 'done' });
    await Promise.all([deleted, patched]);
    expect(table.get('n1')).toBeUndefined();
    await table.close();
    expect(await storedRows()).toEqual([note(2)]);
  });

  test('a line cut short by a crash is dropped; a damaged line before the end is refused', async () => {
    const table = await openNotes();
    await table.close();
    const segment = join(journalDir(), 'notes.00000001.log');
    await writeFile(segment, `${JSON.stringify({ put: [note(1)] })}\n{"put":[{"id":"n2","acc`);
    const reopened = await openNotes();
    expect(reopened.values()).toEqual([note(1)]);
    await reopened.close();

    await writeFile(segment, `{"put":[{"id":"n3"\n${JSON.stringify({ put: [note(4)] })}\n`);
    await expect(openNotes()).rejects.toThrow(/notes\.00000001\.log is damaged at line 1/);
    expect(await readFile(segment, 'utf8')).toContain('n4');
  });

  test('writes resolve in order and the cache changes only once a write is durable', async () => {
    const table = await openNotes();
    const first = table.put(note(1, 'first'));
    const second = table.put(note(1, 'second'));
    expect(table.get('n1')).toBeUndefined();
    await Promise.all([first, second]);
    expect(table.get('n1')?.text).toBe('second');
    await table.close();
    const reopened = await openNotes();
    expect(reopened.get('n1')?.text).toBe('second');
    expect(await storedRows()).toEqual([note(1, 'second')]);
    await reopened.close();
  });
});
