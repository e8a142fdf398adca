import { describe, expect, test } from 'vitest';
import { defaultSourceName, withParam } from '../../src/mcp/tools.ts';

describe('add_source names a source the way the CLI does', () => {
  test('a file by its name, from a path or a URL', () => {
    expect(defaultSourceName('file', '/home/ada/reports/q3 figures.pdf')).toBe('q3 figures.pdf');
    expect(defaultSourceName('file', 'C:\\Users\\ada\\notes.md')).toBe('notes.md');
    expect(defaultSourceName('file', 'https://example.com/files/annual%20report.pdf')).toBe(
      'annual report.pdf',
    );
    expect(defaultSourceName('file', 'https://example.com/')).toBe('example.com');
  });

  test('a page or a site by host and path', () => {
    expect(defaultSourceName('url', 'https://example.com/guide/install')).toBe('example.com/guide/install');
    expect(defaultSourceName('website', 'https://docs.example.com/')).toBe('docs.example.com');
  });

  test('a text by its start, on one line, at most 60 characters', () => {
    expect(defaultSourceName('text', '  Opening\nhours:   nine to five ')).toBe(
      'Opening hours: nine to five',
    );
    const long = defaultSourceName('text', 'word '.repeat(40));
    expect(long).toHaveLength(60);
    expect(long.endsWith('…')).toBe(true);
  });
});

test('an error names its field unless the message already starts with it', () => {
  expect(withParam('application app_1 not found', 'application_id')).toBe(
    'application app_1 not found (application_id)',
  );
  expect(withParam('content must be a file id', 'content')).toBe('content must be a file id');
  expect(withParam('unknown or revoked API key', undefined)).toBe('unknown or revoked API key');
});
