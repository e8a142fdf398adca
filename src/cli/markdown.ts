import type { ChalkInstance } from 'chalk';

/** Longest a bold or code span may stay open before it is printed as plain text (a stray `*` must not stall output). */
const MAX_SPAN = 400;

type LineKind = 'plain' | 'heading' | 'code';

/**
 * Renders Markdown for a terminal while it streams in: block prefixes (headings, lists, quotes, code fences)
 * are decided at the start of each line, inline `**bold**` and `` `code` `` once their span closes, and
 * everything else is written as soon as it arrives.
 */
export class TerminalMarkdown {
  readonly #colour: ChalkInstance;
  #pending = '';
  #lineStarted = false;
  #lineKind: LineKind = 'plain';
  #inFence = false;

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
    this.#lineStarted = false;
    this.#inFence = false;
    return rendered;
  }

  #start(final: boolean): string {
    const newline = this.#pending.indexOf('\n');
    const head = newline === -1 ? this.#pending : this.#pending.slice(0, newline);
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
      const marker = line.startsWith('**', index) ? '**' : line[index] === '`' ? '`' : undefined;
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
      const close = line.indexOf(marker, index + marker.length);
      if (close === -1) {
        const open = line.length - index;
        if (newline === -1 && !final && open < MAX_SPAN) break;
        rendered += this.#style(line.slice(index, index + marker.length));
        index += marker.length;
        continue;
      }
      const inner = line.slice(index + marker.length, close);
      rendered += marker === '**' ? this.#colour.bold(inner) : this.#colour.cyan(inner);
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
