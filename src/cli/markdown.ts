import type { ChalkInstance } from 'chalk';

/** Longest a bold or code span may stay open before it is printed as plain text (a stray `*` must not stall output). */
const MAX_SPAN = 400;

type LineKind = 'plain' | 'heading' | 'code';

/** Where an `*italic*` span opened before `from` closes: a single `*` after a non-space, or -1. */
function italicClose(line: string, from: number): number {
  for (let index = from + 1; index < line.length; index += 1) {
    if (line[index] !== '*') continue;
    if (line[index + 1] === '*') {
      index += 1;
      continue;
    }
    if (!/\s/.test(line[index - 1] ?? ' ')) return index;
  }
  return -1;
}

/** A table row's cells: `| a | b |` → `['a', 'b']`. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

function isDelimiterRow(cells: readonly string[]): boolean {
  return cells.length > 0 && cells.every((cell) => /^:?-+:?$/.test(cell));
}

/**
 * Renders Markdown for a terminal while it streams in: block prefixes (headings, lists, quotes, code fences)
 * are decided at the start of each line, inline `**bold**`, `*italic*` and `` `code` `` once their span
 * closes, tables once their last row has arrived, and everything else is written as soon as it arrives.
 */
export class TerminalMarkdown {
  readonly #colour: ChalkInstance;
  #pending = '';
  #lineStarted = false;
  #lineKind: LineKind = 'plain';
  #inFence = false;
  /** Rows of the table being read; it is printed, aligned, when a line that is not a row ends it. */
  #table: string[][] = [];
  #tableHeader = false;

  constructor(colour: ChalkInstance) {
    this.#colour = colour;
  }

  /** Feeds a delta; returns what can be written now. */
  push(delta: string): string {
    this.#pending += delta;
    let rendered = '';
    for (;;) {
      const before = [this.#pending, this.#lineStarted];
      rendered += this.#lineStarted ? this.#inline(false) : this.#start(false);
      if (this.#pending === before[0] && this.#lineStarted === before[1]) return rendered;
    }
  }

  /** Flushes whatever is still held back at the end of the reply. */
  end(): string {
    let rendered = '';
    while (this.#pending !== '') {
      rendered += this.#lineStarted ? this.#inline(true) : this.#start(true);
    }
    rendered += this.#flushTable().replace(/\n$/, '');
    this.#lineStarted = false;
    this.#inFence = false;
    return rendered;
  }

  #start(final: boolean): string {
    const newline = this.#pending.indexOf('\n');
    const head = newline === -1 ? this.#pending : this.#pending.slice(0, newline);
    if (!this.#inFence && /^\s*\|/.test(head)) {
      if (newline === -1 && !final) return '';
      this.#addTableRow(head);
      this.#pending = newline === -1 ? '' : this.#pending.slice(newline + 1);
      return '';
    }
    // Wait to know whether the line continues the table; anything else ends it.
    if (this.#table.length > 0 && head.trim() === '' && newline === -1 && !final) return '';
    return this.#flushTable() + this.#startLine(final, newline, head);
  }

  #addTableRow(line: string): void {
    const cells = cellsOf(line);
    if (this.#table.length === 1 && isDelimiterRow(cells)) {
      this.#tableHeader = true;
      return;
    }
    this.#table.push(cells);
  }

  /** The table read so far, columns aligned, the header bold and ruled off. */
  #flushTable(): string {
    if (this.#table.length === 0) return '';
    const rows = this.#table.map((cells) => cells.map((cell) => this.#inlineCell(cell)));
    const columns = Math.max(...rows.map((cells) => cells.length));
    const widths = Array.from({ length: columns }, (_, column) =>
      Math.max(...rows.map((cells) => cells[column]?.width ?? 0)),
    );
    const line = (cells: { text: string; width: number }[], header: boolean) =>
      widths
        .map((width, column) => {
          const cell = cells[column] ?? { text: '', width: 0 };
          const text = header ? this.#colour.bold(cell.text) : cell.text;
          return text + ' '.repeat(width - cell.width);
        })
        .join('  ')
        .trimEnd();
    const lines = rows.map((cells, index) => line(cells, index === 0 && this.#tableHeader));
    if (this.#tableHeader)
      lines.splice(1, 0, this.#colour.dim(widths.map((width) => '─'.repeat(width)).join('  ')));
    this.#table = [];
    this.#tableHeader = false;
    return `${lines.join('\n')}\n`;
  }

  /** A table cell's inline styles, with the width it takes on screen. */
  #inlineCell(cell: string): { text: string; width: number } {
    let width = 0;
    const text = cell.replace(
      /\*\*([^*]+)\*\*|`([^`]+)`|\*([^*\s][^*]*?)\*|([^*`]+|[*`])/g,
      (_, bold, code, italic, plain) => {
        const inner = String(bold ?? code ?? italic ?? plain);
        width += [...inner].length;
        if (bold !== undefined) return this.#colour.bold(inner);
        if (code !== undefined) return this.#colour.cyan(inner);
        if (italic !== undefined) return this.#colour.italic(inner);
        return inner;
      },
    );
    return { text, width };
  }

  #startLine(final: boolean, newline: number, head: string): string {
    // Wait until the line's first characters show whether it opens a block.
    if (newline === -1 && !final && /^\s*(#{0,6}|[-*+]|\d{0,3}\.?|`{0,3}|>)$/.test(head)) return '';
    const fence = /^\s*```/.test(head);
    if (fence) {
      if (newline === -1 && !final) return '';
      this.#inFence = !this.#inFence;
      this.#pending = newline === -1 ? '' : this.#pending.slice(newline + 1);
      return '';
    }
    this.#lineStarted = true;
    if (this.#inFence) {
      this.#lineKind = 'code';
      return '  ';
    }
    const heading = /^(#{1,6})\s+/.exec(head);
    if (heading) {
      this.#lineKind = 'heading';
      this.#pending = this.#pending.slice(heading[0].length);
      return '';
    }
    this.#lineKind = 'plain';
    const bullet = /^(\s*)[-*+]\s+/.exec(head);
    if (bullet) {
      this.#pending = this.#pending.slice(bullet[0].length);
      return `${bullet[1]}  • `;
    }
    const quote = /^>\s?/.exec(head);
    if (quote) {
      this.#pending = this.#pending.slice(quote[0].length);
      return this.#colour.dim('│ ');
    }
    return '';
  }

  #style(text: string): string {
    if (text === '') return '';
    if (this.#lineKind === 'heading') return this.#colour.bold.underline(text);
    if (this.#lineKind === 'code') return this.#colour.cyan(text);
    return text;
  }

  #inline(final: boolean): string {
    const newline = this.#pending.indexOf('\n');
    const line = newline === -1 ? this.#pending : this.#pending.slice(0, newline);
    if (this.#lineKind === 'code') {
      this.#pending = newline === -1 ? '' : this.#pending.slice(newline + 1);
      return this.#endLine(this.#style(line), newline);
    }
    let rendered = '';
    let index = 0;
    while (index < line.length) {
      const marker = line.startsWith('**', index)
        ? '**'
        : line[index] === '`'
          ? '`'
          : line[index] === '*' && /[^\s*]/.test(line[index + 1] ?? ' ')
            ? '*'
            : undefined;
      if (marker === undefined) {
        const next = line.slice(index).search(/\*|`/);
        const end = next === -1 ? line.length : index + next;
        // A lone `*` (not `**`) is plain text, but only once we know the next character.
        if (end === index) {
          if (index + 1 === line.length && newline === -1 && !final) break;
          rendered += this.#style(line[index] ?? '');
          index += 1;
          continue;
        }
        rendered += this.#style(line.slice(index, end));
        index = end;
        continue;
      }
      const close =
        marker === '*' ? italicClose(line, index + 1) : line.indexOf(marker, index + marker.length);
      if (close === -1) {
        const open = line.length - index;
        if (newline === -1 && !final && open < MAX_SPAN) break;
        rendered += this.#style(line.slice(index, index + marker.length));
        index += marker.length;
        continue;
      }
      const inner = line.slice(index + marker.length, close);
      const paint = { '**': this.#colour.bold, '`': this.#colour.cyan, '*': this.#colour.italic }[marker];
      rendered += paint(inner);
      index = close + marker.length;
    }
    this.#pending = this.#pending.slice(index);
    if (index < line.length) return rendered;
    if (newline !== -1) this.#pending = this.#pending.slice(1);
    return this.#endLine(rendered, newline);
  }

  #endLine(rendered: string, newline: number): string {
    if (newline === -1) return rendered;
    this.#lineStarted = false;
    return `${rendered}\n`;
  }
}
