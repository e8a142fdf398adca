import { Chalk, type ChalkInstance } from 'chalk';
import type { GlobalOptions } from './options.ts';

function colourFor(stream: NodeJS.WriteStream): ChalkInstance {
  const enabled = stream.isTTY === true && process.env['NO_COLOR'] === undefined;
  return new Chalk({ level: enabled ? 1 : 0 });
}

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Right-aligned (numbers). */
  numeric?: boolean;
}

/** Everything a command prints goes through here: data to stdout, progress and notices to stderr. */
export function createOutput(options: GlobalOptions) {
  const colour = colourFor(process.stdout);
  const errorColour = colourFor(process.stderr);
  const json = options.json === true;
  const quiet = options.quiet === true;

  const write = (text: string): void => {
    process.stdout.write(text);
  };
  const line = (text = ''): void => write(`${text}\n`);

  return {
    json,
    quiet,
    colour,
    errorColour,
    write,
    line,
    printJson: (value: unknown): void => line(JSON.stringify(value, null, 2)),
    /** Progress and notices; silent with --quiet. */
    notice: (text: string) => {
      if (!quiet) process.stderr.write(`${errorColour.dim(text)}\n`);
    },
    warn: (text: string) => process.stderr.write(`${errorColour.yellow(text)}\n`),
    /** A create command: the id alone (scripts capture it), or the whole object with --json. */
    printCreated: (resource: { id: string }): void =>
      line(json ? JSON.stringify(resource, null, 2) : resource.id),
    printTable<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): void {
      if (rows.length === 0) {
        if (!quiet) process.stderr.write(`${errorColour.dim('(none)')}\n`);
        return;
      }
      const cells = rows.map((row) => columns.map((column) => column.value(row)));
      const widths = columns.map((column, index) =>
        Math.max(column.header.length, ...cells.map((rowCells) => rowCells[index]?.length ?? 0)),
      );
      const pad = (text: string, index: number) =>
        columns[index]?.numeric ? text.padStart(widths[index] ?? 0) : text.padEnd(widths[index] ?? 0);
      line(
        colour.bold(
          columns
            .map((column, index) => pad(column.header, index))
            .join('  ')
            .trimEnd(),
        ),
      );
      for (const rowCells of cells) line(rowCells.map(pad).join('  ').trimEnd());
    },
    printFields(fields: readonly [string, string][]): void {
      const width = Math.max(...fields.map(([label]) => label.length));
      for (const [label, value] of fields) line(`${colour.dim(label.padEnd(width))}  ${value}`);
    },
  };
}

export type Output = ReturnType<typeof createOutput>;

/** `2026-11-22T18:03:00.000Z` → `2026-11-22 18:03`: enough to tell items apart in a table. */
export function shortTime(timestamp: string): string {
  return timestamp.slice(0, 16).replace('T', ' ');
}

export function oneLine(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= width ? flat : `${flat.slice(0, width - 1)}…`;
}

/** `2611` → `2,611`, whatever the locale, so progress reads the same everywhere. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

/** `1 page`, `2 pages`, `2,611 sources`: a count with its noun, singular for one. */
export function plural(value: number, noun: string, nouns = `${noun}s`): string {
  return `${count(value)} ${value === 1 ? noun : nouns}`;
}
