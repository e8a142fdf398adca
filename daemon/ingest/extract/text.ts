import { decodeText } from '../decode-text.ts';
import type { ExtractedDocument } from '../types.ts';
import { ExtractionError } from './errors.ts';

export function readPlainText(bytes: Uint8Array): ExtractedDocument {
  return { pages: [{ page: 1, text: decodeText(bytes) }] };
}

/** Markdown is kept as written (the chunker follows its `#` headings); underlined headings become `#` lines. */
export function readMarkdown(bytes: Uint8Array): ExtractedDocument {
  const text = underlinedHeadingsToHashes(stripFrontMatter(decodeText(bytes)));
  const title = /^# (.+)$/m.exec(text)?.[1]?.trim();
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
