import { fencedLines } from '../../text/sentences.ts';
import { decodeText } from '../decode-text.ts';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError } from './errors.ts';

/**
 * Plain text is kept as written but for its headings, which become `#` lines so the chunker starts a passage at
 * each and carries it along: underlined lines, and lone flush-left lines over indented text, as changelogs and
 * RFCs set their sections ("Release 4.0.0 - 8/18/2026" above its indented entries).
 */
export function readPlainText(bytes: Uint8Array): ExtractedDocument {
  return { pages: [{ page: 1, text: plainTextHeadingsToHashes(decodeText(bytes)) }] };
}

/** Longest line read as a heading: longer ones are sentences. */
const PLAIN_HEADING_CHARACTERS = 80;

function plainTextHeadingsToHashes(text: string): string {
  const lines = text.split(/\r?\n/);
  const output: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const next = lines[index + 1] ?? '';
    const startsParagraph = index === 0 || lines[index - 1]!.trim() === '';
    if (!startsParagraph || !isHeadingLike(line)) {
      output.push(line);
    } else if (isUnderline(next, line)) {
      output.push(`${next.trim().startsWith('=') ? '#' : '##'} ${line.trim()}`);
      index++;
    } else if (
      next.trim() === '' &&
      isIndented(lines.slice(index + 1).find((after) => after.trim() !== ''))
    ) {
      output.push(`## ${line.trim()}`);
    } else {
      output.push(line);
    }
  }
  return output.join('\n');
}

/** Flush left, short, and not ended like a sentence or a list item's lead-in. */
function isHeadingLike(line: string): boolean {
  const trimmed = line.trim();
  return (
    /^[^\s#>*|`-]/.test(line) && trimmed.length <= PLAIN_HEADING_CHARACTERS && !/[.,;:!?]$/.test(trimmed)
  );
}

/** A row of `=` or `-` about as long as the line above it (a shorter row is a rule, not an underline). */
function isUnderline(line: string, heading: string): boolean {
  const trimmed = line.trim();
  return /^(=+|-+)$/.test(trimmed) && trimmed.length * 2 >= heading.trim().length;
}

function isIndented(line: string | undefined): boolean {
  return line !== undefined && /^[ \t]+\S/.test(line);
}

/** Markdown is kept as written (the chunker follows its `#` headings); underlined headings become `#` lines. */
export function readMarkdown(bytes: Uint8Array): ExtractedDocument {
  const text = underlinedHeadingsToHashes(stripFrontMatter(decodeText(bytes)));
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  // The first heading of level 1 outside code: a shell example's "# install it first" titles nothing.
  const title = lines
    .find((line, index) => !fenced[index] && /^# ./.test(line))
    ?.slice(2)
    .trim();
  return title ? { pages: [{ page: 1, text }], title } : { pages: [{ page: 1, text }] };
}

function stripFrontMatter(text: string): string {
  return text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
}

function underlinedHeadingsToHashes(text: string): string {
  return text.replace(
    /^([^\s#>\-*|`][^\n]*)\r?\n(=+|-+)[ \t]*$/gm,
    (_match, heading: string, underline: string) =>
      underline.startsWith('=') ? `# ${heading.trim()}` : `## ${heading.trim()}`,
  );
}

/** JSON becomes one `path: value` line per leaf, e.g. `people[0].name: Ada`, so every value keeps its context. */
export function readJson(bytes: Uint8Array, fileName: string): ExtractedDocument {
  let value: unknown;
  try {
    value = JSON.parse(decodeText(bytes));
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
    throw ExtractionError.cannotRead(fileName, 'corrupt', `the file is not valid JSON (${detail})`, error);
  }
  const lines: string[] = [];
  flatten(value, '', lines);
  return { pages: [{ page: 1, text: lines.join('\n') }] };
}

function flatten(value: unknown, path: string, lines: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      flatten(item, `${path}[${index}]`, lines);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      flatten(item, path ? `${path}.${pathSegment(key)}` : pathSegment(key), lines);
    }
  } else {
    const text = String(value).replace(/\s*\n\s*/g, ' ');
    lines.push(path ? `${path}: ${text}` : text);
  }
}

// Keys that are not plain identifiers are quoted so the path reads unambiguously.
function pathSegment(key: string): string {
  return /^[\p{L}_$][\p{L}\p{N}_$-]*$/u.test(key) ? key : JSON.stringify(key);
}
